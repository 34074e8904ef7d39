/** Token counting: the counter port, per-part cached request sizes and calibration. */
export { Calibration, reportedInputTokens } from "./calibration";
export { type Encoding, encodingForModel, ESTIMATE_ENCODING, estimateCounter, estimateTokens, type TokenCounter } from "./counter";
export { IMAGE_TOKENS, messageTokens, PDF_TOKENS } from "./part-text";
export { CountMemo, charsPerToken, DEFAULT_CHARS_PER_TOKEN, estimateRequestSize, finishRequestSize, measureRequest, planRequestSize, type RequestSize, type RequestSizeInput, type RequestSizePlan, utf8Length } from "./request-size";
