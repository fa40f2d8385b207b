// Lets a caller stop waiting for a promise when a signal aborts. The work itself is not cancelled (the
// caller owns that); the listener is always removed so long-lived signals do not collect them.

export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined, makeError: () => Error): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(makeError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(makeError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
