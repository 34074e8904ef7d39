/** Token counting: the counter port, per-part cached request sizes and calibration (import the modules for the rest). */
export { Calibration, reportedInputTokens } from "./calibration";
export { estimateCounter, type TokenCounter } from "./counter";
export { CountMemo, type RequestSize } from "./request-size";
