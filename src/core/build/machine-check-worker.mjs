// Entry of the machine-check worker thread (see ./machine-check-thread.ts). A worker thread does not inherit
// the main thread's TypeScript loader, so this plain module registers tsx (a dependency of ardsite) and
// then runs the TypeScript worker.
import { tsImport } from 'tsx/esm/api';

await tsImport('./machine-check-worker.ts', import.meta.url);
