import type { WebContainer } from "@webcontainer/api";

/** The parts of a booted WebContainer this backend uses (the fake in tests has exactly these). */
export type WebContainerLike = Pick<WebContainer, "workdir" | "fs" | "spawn" | "teardown">;
