import { ApiProperty } from '@nestjs/swagger';
import { isoUtc } from '../common/values/datetime';
import type { MailStatus, OutgoingMail } from './outgoing-mail.entity';
import { ApiDateTime, ApiInt } from '../common/http/api-schemas';

/** An attachment as listed on a mail (the file itself is not served here). */
export class OutgoingMailAttachmentJson {
  filename!: string;
  content_type!: string;
  /** Size in bytes. */
  @ApiInt()
  size!: number;
}

/**
 * Wire shape of `O/outgoingmails/` (README "Resources"): what the service sent, or tries to send, on behalf of
 * the organizer. Datetimes ISO 8601 UTC.
 */
export class OutgoingMailJson {
  @ApiInt()
  id!: number;
  @ApiProperty({ enum: ['queued', 'sending', 'sent', 'failed'] })
  status!: MailStatus;
  /** Recipients. */
  to!: string[];
  subject!: string;
  /** Plain-text body. */
  body!: string;
  /** Slug of the event the mail concerns, or null (team invitations). */
  event!: string | null;
  @ApiDateTime()
  created!: string;
  /** When the mail was handed to the SMTP server, or null. */
  @ApiDateTime({ nullable: true })
  sent!: string | null;
  /** Delivery attempts started. */
  @ApiInt()
  attempts!: number;
  /** While `queued`: when the next attempt is due; otherwise null. */
  @ApiDateTime({ nullable: true })
  next_attempt!: string | null;
  /** Error of the last failed attempt, or null. */
  error!: string | null;
  attachments!: OutgoingMailAttachmentJson[];
}

/** Entity -> wire object; `eventSlugs` maps event ids to slugs (loaded in bulk by the caller). */
export function toOutgoingMailJson(
  mail: OutgoingMail,
  eventSlugs: ReadonlyMap<number, string>,
): OutgoingMailJson {
  return {
    id: mail.id,
    status: mail.status,
    to: [mail.recipient],
    subject: mail.subject,
    body: mail.body,
    event: mail.eventId === null ? null : (eventSlugs.get(mail.eventId) ?? null),
    created: isoUtc(mail.created),
    sent: isoUtc(mail.sentAt),
    attempts: mail.attempts,
    next_attempt: mail.status === 'queued' ? isoUtc(mail.nextAttempt) : null,
    error: mail.error,
    attachments: mail.attachments.map((a) => ({
      filename: a.filename,
      content_type: a.content_type,
      size: a.size,
    })),
  };
}
