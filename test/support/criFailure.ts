import { expect } from 'vitest';
import { CriError } from '../../src/infra/cri/criError';

/** The CriError a call rejects with; fails the test when it resolves or rejects with anything else. */
export async function criFailure(promise: Promise<unknown>): Promise<CriError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CriError);
  return error as CriError;
}
