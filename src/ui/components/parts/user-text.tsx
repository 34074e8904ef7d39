/**
 * A user message's text, as typed (never markdown, never HTML), except links back into tabcode itself
 * (`[words](#/s/<session>/m/<message>)`, as a Start-fresh brief has them): those show their words and open the
 * message. Only this app's own hash links are made links; any other text stays text.
 */

const INTERNAL_LINK = /\[([^\][\n]{1,300})\]\((#\/s\/[A-Za-z0-9_]+(?:\/m\/[A-Za-z0-9_]+)?)\)/g;

export type TextPiece = { text: string } | { text: string; href: string };

export function linkPieces(text: string): TextPiece[] {
  const out: TextPiece[] = [];
  let at = 0;
  for (const m of text.matchAll(INTERNAL_LINK)) {
    const [whole, words, href] = m;
    if (m.index > at) out.push({ text: text.slice(at, m.index) });
    out.push({ text: words ?? "", href: href ?? "" });
    at = m.index + whole.length;
  }
  if (at < text.length || out.length === 0) out.push({ text: text.slice(at) });
  return out;
}

export function UserText({ text, className }: { text: string; className: string }) {
  const pieces = linkPieces(text);
  const plain = pieces.every((p) => !("href" in p));
  return (
    <div className={className}>
      {plain
        ? text
        : pieces.map((p, i) =>
            "href" in p ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text never move
              <a key={i} href={p.href}>
                {p.text}
              </a>
            ) : (
              p.text
            ),
          )}
    </div>
  );
}
