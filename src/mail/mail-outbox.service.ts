import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { OutgoingMail } from './outgoing-mail.entity';

export interface MailMessage {
  organizerId: number | null;
  eventId?: number | null;
  to: string;
  subject: string;
  body: string;
}

/**
 * Puts e-mails into the outbox table within the caller's transaction (architecture.md: mail is sent by the
 * worker; until SMTP delivery lands, the outbox row is the record of the mail).
 */
@Injectable()
export class MailOutboxService {
  async enqueue(em: EntityManager, message: MailMessage): Promise<number> {
    const result = await em.insert(OutgoingMail, {
      organizerId: message.organizerId,
      eventId: message.eventId ?? null,
      recipient: message.to,
      subject: message.subject.slice(0, 998),
      body: message.body,
      status: 'queued',
    });
    return (result.identifiers[0] as { id: number }).id;
  }
}
