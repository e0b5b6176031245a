// happy-dom has no indexedDB (TOOLCHAIN.md): Dexie and idb-keyval tests need the in-memory one.
import 'fake-indexeddb/auto';
