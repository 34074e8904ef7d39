import type { NamedErrorData } from "../../core/schema";

/** A headline in plain words for each named error; the provider's own message is shown verbatim below it. */
export function errorHeadline(e: NamedErrorData): string {
  const status = typeof e.data.statusCode === "number" ? e.data.statusCode : undefined;
  switch (e.name) {
    case "ProviderAuthError":
      return "The provider rejected the API key";
    case "ContextOverflowError":
      return e.data.kind === "floor" ? "Too large for this model, even after a summary" : "The conversation is too long for this model's context window";
    case "NetworkError":
      return "Could not reach the provider";
    case "StreamError":
      return "The response was cut off";
    case "MessageAbortedError":
      return "Stopped";
    case "MessageOutputLengthError":
      return "The answer hit the output token limit";
    case "APIError":
      if (status === 404) return "Model or endpoint not found";
      switch (e.data.kind) {
        case "quota":
          return "Your quota or credit with the provider is used up";
        case "too-large":
          return "The request is larger than your per-minute token limit";
        case "rate-limit":
          return "Rate limited by the provider";
        case "overloaded":
          return "The provider is overloaded";
        case "server":
          return `The provider had a server error${status ? ` (HTTP ${status})` : ""}`;
      }
      if (status === 429) return "Rate limited by the provider";
      if (status !== undefined && status >= 500) return "The provider is failing or overloaded";
      return `The provider returned an error${status ? ` (HTTP ${status})` : ""}`;
    default:
      return e.data.kind === "settings" ? "A setting needs fixing" : "Something went wrong";
  }
}

export function ErrorBox({ error, onRetry, onContinue, inSettings }: { error: NamedErrorData; onRetry?: () => void; onContinue?: () => void; inSettings?: boolean }) {
  const message = typeof error.data.message === "string" ? error.data.message : "";
  const given = typeof error.data.hint === "string" ? error.data.hint : "";
  // Shown in Settings (Test connection), advice to look "in Settings" points at the fields above instead.
  const hint = inSettings ? given.replace(/ in Settings\b/g, " above") : given;
  if (error.name === "MessageAbortedError")
    return (
      <div className="notice-aborted" role="note">
        {message || "Stopped"}
        {onContinue && (
          <>
            {" "}
            <button type="button" className="link" onClick={onContinue}>
              Continue
            </button>
          </>
        )}
      </div>
    );
  return (
    <div className="error-box" role="alert">
      <strong>{errorHeadline(error)}</strong>
      {message && <pre className="provider-message">{message}</pre>}
      {hint && <p className="hint">{hint}</p>}
      {(onRetry || onContinue) && (
        <div className="error-actions">
          {onContinue && (
            <button type="button" onClick={onContinue}>
              Continue
            </button>
          )}
          {onRetry && (
            <button type="button" className="primary" onClick={onRetry} title="Ask the same question again (as a new branch)">
              Retry
            </button>
          )}
        </div>
      )}
    </div>
  );
}
