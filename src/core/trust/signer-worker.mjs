// Entry of a signing worker thread (see src/core/trust/signer-pool.ts). A worker thread does not inherit the
// main thread's TypeScript loader, so this plain module registers tsx (a dependency of ardsite) and then
// runs the TypeScript worker.
import { tsImport } from 'tsx/esm/api';

await tsImport('./signer-worker.ts', import.meta.url);
