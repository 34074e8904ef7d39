import { parseSettingsReport, type Settings } from "../core/settings";

/** Where settings are persisted (the storage adapter's settings table). */
export interface SettingsPersistence {
  load(): Promise<unknown>;
  save(value: Settings): Promise<void>;
}

/** Settings held in memory with subscribe/getSnapshot for React, saved on change. */
export class SettingsStore {
  private value: Settings;
  private listeners = new Set<() => void>();

  constructor(
    initial: Settings,
    private readonly persistence: SettingsPersistence,
    /** Settings that were invalid when loaded and were reset to defaults (labels for a notice). */
    readonly resetOnLoad: readonly string[] = [],
  ) {
    this.value = initial;
  }

  static async load(persistence: SettingsPersistence): Promise<SettingsStore> {
    let raw: unknown;
    try {
      raw = await persistence.load();
    } catch {
      raw = undefined;
    }
    const { settings, reset } = parseSettingsReport(raw);
    return new SettingsStore(settings, persistence, reset);
  }

  get = (): Settings => this.value;

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => {
      this.listeners.delete(l);
    };
  };

  async set(next: Settings): Promise<void> {
    this.value = next;
    for (const l of this.listeners) l();
    await this.persistence.save(next);
  }
}
