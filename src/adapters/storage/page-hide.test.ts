import { describe, expect, it, vi } from "vitest";
import { installFlushOnPageHide } from "./page-hide";

describe("installFlushOnPageHide", () => {
  it("flushes on pagehide and when the page becomes hidden, until uninstalled", () => {
    const target = new EventTarget();
    const store = { flush: vi.fn(async () => {}) };
    let hidden = false;
    const uninstall = installFlushOnPageHide(store, target, { isHidden: () => hidden });

    target.dispatchEvent(new Event("visibilitychange"));
    expect(store.flush).not.toHaveBeenCalled();
    hidden = true;
    target.dispatchEvent(new Event("visibilitychange"));
    expect(store.flush).toHaveBeenCalledTimes(1);
    target.dispatchEvent(new Event("pagehide"));
    expect(store.flush).toHaveBeenCalledTimes(2);

    uninstall();
    target.dispatchEvent(new Event("pagehide"));
    target.dispatchEvent(new Event("visibilitychange"));
    expect(store.flush).toHaveBeenCalledTimes(2);
  });

  it("reports a failed flush instead of leaving an unhandled rejection", async () => {
    const target = new EventTarget();
    const warn = vi.fn();
    const store = { flush: vi.fn(() => Promise.reject(new Error("storage is full"))) };
    installFlushOnPageHide(store, target, { warn });
    target.dispatchEvent(new Event("pagehide"));
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringContaining("storage is full")));
  });
});
