/** The tabcode brand: a link to the start page (the demos, the sample sessions), in the sessions panel and in the bar above a session. */
export function BrandLink({ small = false }: { small?: boolean }) {
  return (
    <a className={small ? "brand small brand-home" : "brand-home"} href="#/" aria-label="tabcode start page" title="Start page: the demos and sample sessions">
      <span className="logo" aria-hidden="true">
        ▸_
      </span>
      tabcode
    </a>
  );
}
