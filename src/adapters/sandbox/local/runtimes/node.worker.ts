/** The node Worker: QuickJS, one script at a time (a runaway one is interrupted, or the Worker terminated). */
import { serveEngine } from "./engine-worker";
import { runNode } from "./node-driver";
import { loadQuickJS } from "./node-host";

serveEngine(loadQuickJS, runNode);
