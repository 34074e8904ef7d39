import { useState } from "react";
import { enableNotifications, notifyPreference, useNotifyPreference } from "./preference";

/** The setting (applies at once: the browser asks for permission on this click). */
export function NotifySetting() {
  const on = useNotifyPreference();
  const [message, setMessage] = useState<string>();
  return (
    <div className="field notify-setting">
      <label>
        <input
          type="checkbox"
          checked={on}
          onChange={async (e) => {
            setMessage(undefined);
            if (!e.target.checked) return notifyPreference.set(false);
            const r = await enableNotifications();
            if (!r.ok) setMessage(r.message);
          }}
        />{" "}
        Notify me when a run finishes or needs approval
      </label>
      <small>While this tab is hidden or another session is open. The tab title shows a badge either way.</small>
      {message && (
        <small className="notify-message" role="status">
          {message}
        </small>
      )}
    </div>
  );
}
