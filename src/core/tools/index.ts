/** The tools that act on the session's workspace (sandbox). */
import { bashTool } from "./bash";
import { editTool } from "./edit";
import { globTool } from "./glob";
import { grepTool } from "./grep";
import { listTool } from "./ls";
import { readTool } from "./read";
import type { Tool } from "./tool";
import { writeTool } from "./write";

export { bashTool, editTool, globTool, grepTool, listTool, readTool, writeTool };

export const workspaceTools: Tool[] = [readTool, editTool, writeTool, bashTool, listTool, globTool, grepTool];
