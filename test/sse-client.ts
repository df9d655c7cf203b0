import { request as httpRequest, IncomingMessage } from 'http';

/** One server-sent event as received. */
export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
}

/** An open event stream (tests and bench): its status, the events so far, and waits on them. */
export interface SseStream {
  status: number;
  headers: IncomingMessage['headers'];
  /** Every event received so far, in order (comment lines are counted in `comments`). */
  events: SseEvent[];
  comments: string[];
  /** The body of a non-200 answer. */
  body: string;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  /** Resolves with the first event (from the start) that matches; rejects after `timeoutMs`. */
  waitFor(match: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Called for each event as it arrives (bench). */
  onEvent?: (e: SseEvent) => void;
  close(): void;
}

/**
 * Opens `GET url` as an event stream with the given headers and resolves once the status line is in. Parses
 * `id:`, `event:`, `data:` fields and comment lines of text/event-stream.
 */
export function openSse(url: string, headers: Record<string, string>): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      let buffer = '';
      const waiters = new Set<() => void>();
      let endedResolve: () => void = () => undefined;
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events: [],
        comments: [],
        body: '',
        ended: new Promise<void>((r) => (endedResolve = r)),
        waitFor(match, timeoutMs = 8000) {
          return new Promise((ok, fail) => {
            const check = () => {
              const found = stream.events.find(match);
              if (!found) return false;
              waiters.delete(listener);
              clearTimeout(timer);
              ok(found);
              return true;
            };
            const listener = () => void check();
            const timer = setTimeout(() => {
              waiters.delete(listener);
              fail(
                new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(stream.events)}`),
              );
            }, timeoutMs);
            if (!check()) waiters.add(listener);
          });
        },
        close() {
          req.destroy();
        },
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (stream.status !== 200) {
          stream.body += chunk;
          return;
        }
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event: SseEvent = { id: undefined, event: 'message', data: '' };
          let isEvent = false;
          for (const line of block.split('\n')) {
            const field = line.startsWith(':') ? 'comment' : line.slice(0, Math.max(0, line.indexOf(':')));
            const value = line.slice(line.indexOf(':') + 1).trim();
            if (field === 'comment') stream.comments.push(value);
            if (field === 'id') event.id = value;
            if (field === 'event') event.event = value;
            if (field === 'data') event.data += value;
            isEvent ||= ['id', 'event', 'data'].includes(field);
          }
          if (isEvent && event.data !== '') {
            stream.events.push(event);
            stream.onEvent?.(event);
          }
        }
        for (const w of [...waiters]) w();
      });
      res.on('end', () => endedResolve());
      res.on('close', () => endedResolve());
      res.on('error', () => endedResolve());
      resolve(stream);
    });
    req.on('error', reject);
    req.end();
  });
}
