/** The Redis pub/sub channel of a check-in list's live stream (`<QUEUE_PREFIX>:checkin-stream:<list id>`). */
export function streamChannel(prefix: string, listId: number): string {
  return `${prefix}:checkin-stream:${listId}`;
}
