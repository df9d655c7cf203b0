/** The Redis pub/sub channel of a check-in list's live stream (`<QUEUE_PREFIX>:checkin-stream:<list id>`). */
export function streamChannel(prefix: string, listId: number): string {
  return `${prefix}:checkin-stream:${listId}`;
}

/** The list id of a {@link streamChannel}, or null for another channel. */
export function listOfChannel(prefix: string, channel: string): number | null {
  const head = `${prefix}:checkin-stream:`;
  if (!channel.startsWith(head)) return null;
  const id = Number(channel.slice(head.length));
  return Number.isInteger(id) && id > 0 ? id : null;
}

/** Resolves with the promise's value, or rejects after `ms` milliseconds. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from Redis within ${ms} ms (${what})`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
