/**
 * The one import of zod for schemas: its mini build (the classic one's chained methods cost the
 * first screen ~16 KiB gzip more) with English messages, which the mini build does not load by
 * itself. Tool argument errors, the corrupt-row log and import errors quote them. Types come
 * from here too (`import type { z }`): Biome refuses `zod` and `zod/mini` anywhere else.
 */
import { z } from "zod/mini";

z.config(z.locales.en());

export { z };
