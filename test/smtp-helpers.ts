import type { AddressInfo } from 'net';
import { SMTPServer, SMTPServerDataStream, SMTPServerSession } from 'smtp-server';

/** One message a test SMTP server accepted. */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw RFC 5322 message (headers and body). */
  raw: string;
  subject: string;
  /** The body, quoted-printable decoded (plain-text mails). */
  text: string;
}

/** Body of a raw message, with quoted-printable soft breaks and escapes decoded. */
function bodyText(raw: string): string {
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  if (!/Content-Transfer-Encoding: quoted-printable/i.test(raw)) return body;
  return body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A real SMTP server on an ephemeral port, recording what it receives. */
export interface TestSmtpServer {
  /** `smtp://user:pass@127.0.0.1:<port>` */
  url: string;
  received: ReceivedMail[];
  /** RCPT TO commands seen (every delivery attempt, failed ones included). */
  attempts: number;
  close(): Promise<void>;
}

/**
 * Starts an SMTP server (package `smtp-server`) that requires the login `user`/`pass`. With `failWith`, every
 * recipient is refused with that reply code (4xx: temporary, 5xx: permanent), so deliveries fail.
 */
export async function startSmtpServer(failWith?: { code: number; message: string }): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const state = { attempts: 0 };
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === 'user' && auth.password === 'pass') callback(null, { user: 'user' });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo(_address, _session, callback) {
      state.attempts++;
      if (!failWith) return callback();
      const err = new Error(failWith.message) as Error & { responseCode: number };
      err.responseCode = failWith.code;
      callback(err);
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const mailFrom = session.envelope.mailFrom;
        received.push({
          from: mailFrom ? mailFrom.address : '',
          to: session.envelope.rcptTo.map((a) => a.address),
          raw,
          subject: /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
          text: bodyText(raw),
        });
        callback();
      });
    },
  });
  // A client that dies mid-session (a worker killed with SIGKILL in a fault test) resets its connection: the
  // server emits 'error' (ECONNRESET), which without a listener would be thrown into whatever test runs then.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://user:pass@127.0.0.1:${port}`,
    received,
    get attempts() {
      return state.attempts;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
