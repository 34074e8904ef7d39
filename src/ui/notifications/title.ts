/** The one writer of `document.title`: the page's own title (session, working mark) plus the attention badge. */
import { badgeTitle, type Unseen } from "./attention";

let base = "tabcode";
let unseen: Unseen = new Map();
const render = () => {
  document.title = badgeTitle(base, unseen);
};

export const tabTitle = {
  setBase(title: string): void {
    base = title;
    render();
  },
  setUnseen(next: Unseen): void {
    unseen = next;
    render();
  },
};
