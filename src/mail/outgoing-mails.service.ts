import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { NotFound, ValidationFailed } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { TenancyQueries } from '../organizers/tenancy.queries';
import type { Organizer } from '../organizers/organizer.entity';
import { OutgoingMail } from './outgoing-mail.entity';
import { OutgoingMailQueries } from './outgoing-mail.queries';
import { OutgoingMailJson, toOutgoingMailJson } from './outgoing-mail.presenter';

const STATUSES = ['queued', 'sending', 'sent', 'failed'];

/** Reading the outbox of an organizer (`O/outgoingmails/`, README "Resources"). */
@Injectable()
export class OutgoingMailsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queries: OutgoingMailQueries,
  ) {}

  /**
   * Mails of the organizer, newest first. Filters: `status` (one of the statuses), `to` (recipient address,
   * case-insensitive), `created_since` (ISO 8601). Three statements whatever the page size (rows, count, event
   * slugs).
   * @throws ValidationFailed 400 `{"status": [...]}` for an unknown status, `{"created_since": [...]}` for a bad date
   */
  async list(
    organizer: Organizer,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<OutgoingMailJson>> {
    const status = filters.str('status');
    if (status !== undefined && !STATUSES.includes(status))
      throw ValidationFailed.field(
        'status',
        `Select a valid choice. ${status} is not one of the available choices.`,
      );
    const where = { status, to: filters.str('to'), createdSince: filters.datetime('created_since') };
    return this.queries.mailsPage(this.db.manager, organizer.id, where, page, async (rows) => {
      const slugs = await new TenancyQueries().eventSlugs(
        this.db.manager,
        rows.flatMap((m) => (m.eventId === null ? [] : [m.eventId])),
      );
      return rows.map((m) => toOutgoingMailJson(m, slugs));
    });
  }

  /** @throws NotFound for an unknown id or a mail of another organizer */
  async get(organizer: Organizer, id: number): Promise<OutgoingMailJson> {
    const mail = await this.db
      .getRepository(OutgoingMail)
      .findOne({ where: { id, organizerId: organizer.id } });
    if (!mail) throw new NotFound();
    const slugs = await new TenancyQueries().eventSlugs(
      this.db.manager,
      mail.eventId === null ? [] : [mail.eventId],
    );
    return toOutgoingMailJson(mail, slugs);
  }
}
