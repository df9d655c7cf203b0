import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { InvalidRequest, NotFound } from '../../common/errors';
import { i18nText } from '../../common/values/i18n';
import { AppConfig } from '../../config/app-config';
import { MailOutboxService } from '../../mail/mail-outbox.service';
import type { Event } from '../../organizers/event.entity';
import { Order } from '../entities/order.entity';
import { logOrder } from '../writing/order-log';

/** pretix's 400 message of `resend_link` for an order without e-mail. */
export const NO_ORDER_EMAIL = 'There is no email address associated with this order.';

/** The log action of a resent order link (pretix `Order.resend_link`). */
export const RESEND_LINK_ACTION = 'pretix.event.order.email.resend';

/** Subject and text of the mail (pretix's default `mail_subject_resend_link` / `mail_text_resend_link`, in English). */
export function resendLinkMail(
  code: string,
  eventName: string,
  url: string,
): { subject: string; body: string } {
  return {
    subject: `Your order: ${code}`,
    body: [
      'Hello,',
      `you receive this message because you asked us to send you the link\nto your order for ${eventName}.`,
      `You can change your order details and view the status of your order at\n${url}`,
      `Best regards,\nYour ${eventName} team`,
    ]
      .join('\n\n')
      .concat('\n'),
  };
}

/**
 * `POST E/orders/{code}/resend_link/` (compat §4.4 "Actions"): mails the link of the order's page
 * (`<SITE_URL>/<organizer>/<event>/order/<code>/<secret>/`, as the scheduled e-mail rules write it) to the order's
 * e-mail through the mail outbox, and logs `pretix.event.order.email.resend` (with subject, message and recipient,
 * as pretix), both in one transaction. The order itself does not change.
 */
@Injectable()
export class ResendLinkService {
  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly config: AppConfig,
    private readonly audit: AuditLogService,
    private readonly mail: MailOutboxService,
  ) {}

  /**
   * @throws NotFound for a code that is not an order of the event
   * @throws InvalidRequest 400 `{"detail": "There is no email address associated with this order."}`
   */
  async resend(event: Event, organizerSlug: string, principal: Principal, code: string): Promise<void> {
    await this.em.transaction(async (em) => {
      const order =
        code.length <= 16 ? await em.findOne(Order, { where: { eventId: event.id, code } }) : null;
      if (!order) throw new NotFound();
      if (!order.email) throw new InvalidRequest(NO_ORDER_EMAIL);
      const url = `${this.config.siteUrl}/${organizerSlug}/${event.slug}/order/${order.code}/${order.secret}/`;
      const { subject, body } = resendLinkMail(order.code, i18nText(event.name) || event.slug, url);
      await this.mail.enqueue(em, {
        organizerId: event.organizerId,
        eventId: event.id,
        to: order.email,
        subject,
        body,
      });
      await logOrder(this.audit, em, { event, principal }, order.id, RESEND_LINK_ACTION, {
        subject,
        message: body,
        position: null,
        recipient: order.email,
        invoices: [],
        attach_tickets: false,
        attach_ical: false,
      });
    });
  }
}
