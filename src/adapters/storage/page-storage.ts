/** The page's localStorage, or undefined where there is none or it refuses access (privacy settings, a sandboxed frame). */
export function pageStorage(): Storage | undefined {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage;
  } catch {
    return undefined;
  }
}
