/**
 * The Python demo's project: the demo model writes a small module and its
 * `unittest` test into a nearly empty workspace, runs the tests with
 * `python3` (real CPython in the tab), fixes the one failure they show and
 * commits with `git`. Paths are relative to the workspace root.
 */

/** The workspace the Python demo starts from. */
export const PYTHON_DEMO_PROJECT: Record<string, string> = {
  "README.md": `# weather

A tiny Python project for tabcode's Python demo: the demo model writes
\`temperature.py\` and its tests, runs them with \`python3 -m unittest\`,
fixes what fails and commits the result with \`git\`.

Everything runs inside the browser tab: Python is CPython compiled to
WebAssembly (Pyodide, standard library only), git is isomorphic-git.
`,
};

export const PY_MODULE = "temperature.py";
export const PY_TEST = "test_temperature.py";

/** The first draft's slip (the offset's digits swapped), and its fix. */
export const PY_BUGGY = "return celsius * 9 / 5 + 23";
export const PY_FIXED = "return celsius * 9 / 5 + 32";

export const PY_MODULE_TEXT = `"""Temperature conversions for the weather report."""


def to_fahrenheit(celsius):
    """Degrees Celsius to degrees Fahrenheit."""
    ${PY_BUGGY}


def to_celsius(fahrenheit):
    """Degrees Fahrenheit to degrees Celsius."""
    return (fahrenheit - 32) * 5 / 9
`;

export const PY_TEST_TEXT = `import unittest

from temperature import to_celsius, to_fahrenheit


class ConversionTest(unittest.TestCase):
    def test_freezing_point(self):
        self.assertEqual(to_fahrenheit(0), 32)

    def test_boiling_point(self):
        self.assertEqual(to_fahrenheit(100), 212)

    def test_round_trip(self):
        for celsius in (-40, 0, 37, 100):
            self.assertAlmostEqual(to_celsius(to_fahrenheit(celsius)), celsius)


if __name__ == "__main__":
    unittest.main()
`;

export const PY_TEST_COMMAND = "python3 -m unittest -v";
export const PY_COMMIT_MESSAGE = "Add temperature conversions with tests";
export const PY_COMMIT_COMMAND = `git init && git add -A && git commit -m "${PY_COMMIT_MESSAGE}"`;
export const PY_LOG_COMMAND = "git log --oneline";

/** The prompt the Python demo and its sample send. */
export const PYTHON_DEMO_PROMPT = "Write a Python module with tests, make them pass and commit it";
