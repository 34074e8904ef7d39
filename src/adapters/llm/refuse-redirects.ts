/**
 * Provider calls never follow a redirect: the request (with the whole
 * conversation in its body) goes to the base URL the user chose and nowhere
 * else. A 3xx answer — in a browser an opaque redirect, as `redirect:
 * "manual"` hides where it points — becomes a 421 answer whose message says
 * what happened, so the SDK reports it like any provider error and does not
 * retry.
 */

export const REDIRECT_REFUSED_MESSAGE =
  "The provider answered with a redirect to another address. tabcode does not follow redirects, so your conversation was not sent anywhere you did not choose. Check the base URL in Settings (it must be the API's final address).";

function isRedirect(res: Response): boolean {
  return res.type === "opaqueredirect" || (res.status >= 300 && res.status < 400);
}

export function refuseRedirects(f: typeof fetch): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const res = await f(input, { ...init, redirect: "manual" });
    if (!isRedirect(res)) return res;
    await res.body?.cancel().catch(() => undefined);
    return new Response(JSON.stringify({ error: { message: REDIRECT_REFUSED_MESSAGE, type: "redirect_refused" } }), {
      status: 421,
      statusText: "Redirect refused",
      headers: { "content-type": "application/json" },
    });
  };
}
