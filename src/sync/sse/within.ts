/** Resolves with the promise's value, or rejects after `ms` milliseconds (a Redis command's bound). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from Redis within ${ms} ms (${what})`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
