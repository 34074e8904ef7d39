import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { MemoryStore } from "../../testing/memory-store";
import { createDatabase } from "./db";
import { DexieStore } from "./dexie-store";
import { storeContract } from "./store-contract";

storeContract("DexieStore (fake-indexeddb)", () => new DexieStore(createDatabase({ indexedDB: new IDBFactory(), IDBKeyRange })));
storeContract("MemoryStore", () => new MemoryStore());
