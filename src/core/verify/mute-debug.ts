/** Silencing @a2a-js/sdk's debug logging while it verifies (it logs every failed attempt). */
let debugMutes = 0;

let savedDebug: typeof console.debug | undefined;

/**
 * Silences `console.debug` until the returned function is called; nested and concurrent callers share
 * one silence, and the original is restored when the last one ends.
 */
export function muteConsoleDebug(): () => void {
  if (debugMutes++ === 0) {
    savedDebug = console.debug;
    console.debug = () => {};
  }
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--debugMutes === 0 && savedDebug) console.debug = savedDebug;
  };
}
