import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, FindOptionsWhere, IsNull } from 'typeorm';
import type { Principal } from '../auth/principal';
import { UsersService } from '../auth/users.service';
import { FieldErrors, PermissionDenied, ValidationFailed } from '../common/errors';
import { applyOrdering } from '../common/listing/ordering';
import { paginateRows } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { findOrNotFound } from '../common/persistence/find';
import { mergeInput, WriteMode } from '../common/persistence/write';
import type { Event } from '../organizers/event.entity';
import type { Organizer } from '../organizers/organizer.entity';
import { TenancyQueries } from '../organizers/tenancy.queries';
import { coverage } from './export-scope.rules';
import { nextRun, parseSchedule } from './schedule.rules';
import type { CreateScheduledExportDto } from './scheduled-export.dto';
import { ExporterRegistry } from './exporter-registry';
import { ScheduledExportQueries } from './scheduled-export.queries';
import { ScheduledExport } from './scheduled-export.entity';
import {
  cleanScheduledExport,
  SCHEDULED_EXPORT_DEFAULTS,
  ScheduledExportInput,
} from './scheduled-export-input.rules';
import { ScheduledExportJson, toScheduledExportJson } from './scheduled-export.presenter';

/** Where scheduled exports live: an event (`E/`) or its organizer (`O/`, event null). */
export interface ExportPlace {
  organizer: Organizer;
  event: Event | null;
}

/**
 * Scheduled exports of one event or organizer (spec "Scheduled exports"; compat §3.7). Visibility: holders of
 * the settings permission (`event.settings.general:write` resp. `organizer.settings.general:write`) see and
 * change all; a user without it only their own; a token without it nothing (403). Only a user creates (the
 * owner); a non-owner may change one only if they could run its exporter on every event it covers
 * (anti-escalation). Every save recomputes `schedule_next_run` and resets `error_counter`.
 */
@Injectable()
export class ScheduledExportsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly users: UsersService,
    private readonly tenancy: TenancyQueries,
    private readonly exporters: ExporterRegistry,
    private readonly queries: ScheduledExportQueries,
  ) {}

  /** A page, ordering `id` (default), `export_identifier`, `schedule_next_run`; three statements. */
  async list(
    place: ExportPlace,
    principal: Principal,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<ScheduledExportJson>> {
    const owner = this.visibleOwner(place, principal);
    const qb = this.queries.listQuery(
      this.db.manager,
      place.organizer.id,
      place.event ? place.event.id : null,
      owner,
    );
    applyOrdering(
      qb,
      filters,
      { id: 's.id', export_identifier: 's.export_identifier', schedule_next_run: 's.schedule_next_run' },
      ['id'],
    );
    const result = await paginateRows(qb, page, (rows) => rows);
    const emails = await this.users.emailsByIds(result.items.map((r) => r.ownerId));
    return result.withItems(result.items.map((r) => toScheduledExportJson(r, emails.get(r.ownerId) ?? '')));
  }

  /** @throws NotFound for an id that is not a visible export of this place */
  async get(place: ExportPlace, principal: Principal, id: number): Promise<ScheduledExportJson> {
    return this.present(await this.load(this.db.manager, place, principal, id, false));
  }

  /**
   * Creates an export owned by the calling user.
   * @throws PermissionDenied (403) for a token, or a user who may not run the exporter here
   * @throws ValidationFailed (400) naming the fields
   */
  async create(
    place: ExportPlace,
    principal: Principal,
    body: CreateScheduledExportDto,
  ): Promise<ScheduledExportJson> {
    if (principal.kind !== 'user' || principal.identity.userId === undefined) throw new PermissionDenied();
    const input = await this.validate(place, principal, mergeInput(body, this.defaults(place)));
    const row = this.db.getRepository(ScheduledExport).create({
      organizerId: place.organizer.id,
      eventId: place.event?.id ?? null,
      ownerId: principal.identity.userId,
      runningTaskId: null,
    });
    this.apply(row, input, place);
    await this.db.getRepository(ScheduledExport).save(row);
    return this.present(row);
  }

  /**
   * PUT (`replace`) or PATCH (`patch`); any change resets `error_counter` and recomputes the next run.
   * @throws NotFound, PermissionDenied (anti-escalation), ValidationFailed
   */
  async update(
    place: ExportPlace,
    principal: Principal,
    id: number,
    body: Partial<CreateScheduledExportDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<ScheduledExportJson> {
    return this.db.transaction(async (em) => {
      const row = await this.load(em, place, principal, id, true);
      const base = mode === 'patch' ? this.inputOf(row) : this.defaults(place);
      const input = await this.validate(place, principal, mergeInput(body, base));
      this.apply(row, input, place);
      await em.save(row);
      return this.present(row);
    });
  }

  /** @throws NotFound for an id that is not a visible export of this place */
  async delete(place: ExportPlace, principal: Principal, id: number): Promise<void> {
    await this.db.transaction(async (em) => {
      const row = await this.load(em, place, principal, id, true);
      await em.delete(ScheduledExport, { id: row.id });
    });
  }

  /**
   * The owner id the principal is limited to (a user without the settings permission), or null (sees all).
   * @throws PermissionDenied for a token without the settings permission (compat §3.7)
   */
  private visibleOwner(place: ExportPlace, principal: Principal): number | null {
    const org = place.organizer.id;
    const settings = place.event
      ? principal.eventPermissions(org, place.event.id).has('event.settings.general:write')
      : principal.organizerPermissions(org).has('organizer.settings.general:write');
    if (settings) return null;
    if (principal.kind === 'user' && principal.identity.userId !== undefined)
      return principal.identity.userId;
    throw new PermissionDenied();
  }

  private where(place: ExportPlace, owner: number | null): FindOptionsWhere<ScheduledExport> {
    return {
      organizerId: place.organizer.id,
      eventId: place.event ? place.event.id : IsNull(),
      ...(owner !== null ? { ownerId: owner } : {}),
    };
  }

  private load(
    em: EntityManager,
    place: ExportPlace,
    principal: Principal,
    id: number,
    lock: boolean,
  ): Promise<ScheduledExport> {
    const owner = this.visibleOwner(place, principal);
    return findOrNotFound(em, ScheduledExport, { ...this.where(place, owner), id }, lock);
  }

  private defaults(place: ExportPlace): ScheduledExportInput {
    return {
      ...SCHEDULED_EXPORT_DEFAULTS,
      timezone: place.event ? place.event.timezone : SCHEDULED_EXPORT_DEFAULTS.timezone,
      export_identifier: '',
      schedule_rrule: '',
      schedule_rrule_time: '',
    };
  }

  private inputOf(row: ScheduledExport): ScheduledExportInput {
    return {
      export_identifier: row.exportIdentifier,
      export_form_data: row.exportFormData,
      locale: row.locale,
      mail_additional_recipients: row.mailAdditionalRecipients,
      mail_additional_recipients_cc: row.mailAdditionalRecipientsCc,
      mail_additional_recipients_bcc: row.mailAdditionalRecipientsBcc,
      mail_subject: row.mailSubject,
      mail_template: row.mailTemplate,
      schedule_rrule: row.scheduleRrule,
      schedule_rrule_time: row.scheduleRruleTime,
      timezone: row.timezone,
    };
  }

  /**
   * Cleans the input and checks that the principal could run the exporter on everything it covers (the owner
   * on create; any modifier on update: compat §3.7 anti-escalation).
   * @throws ValidationFailed, PermissionDenied
   */
  private async validate(
    place: ExportPlace,
    principal: Principal,
    input: ScheduledExportInput,
  ): Promise<ScheduledExportInput> {
    if (place.event) input = { ...input, timezone: place.event.timezone };
    const cleaned = cleanScheduledExport(
      input,
      place.event ? 'event' : 'organizer',
      this.exporters.declarations,
    );
    if ('errors' in cleaned) throw new ValidationFailed(cleaned.errors as FieldErrors);
    const events = place.event
      ? []
      : await this.tenancy.eventsOfOrganizer(this.db.manager, place.organizer.id);
    const allowed = coverage(
      principal,
      this.exporters.get(cleaned.value.export_identifier)?.declaration ?? null,
      place.organizer.id,
      place.event,
      events,
      cleaned.value.export_form_data,
    );
    if (!allowed) throw new PermissionDenied();
    return cleaned.value;
  }

  private apply(row: ScheduledExport, input: ScheduledExportInput, place: ExportPlace): void {
    row.exportIdentifier = input.export_identifier;
    row.exportFormData = input.export_form_data;
    row.locale = input.locale;
    row.mailAdditionalRecipients = input.mail_additional_recipients;
    row.mailAdditionalRecipientsCc = input.mail_additional_recipients_cc;
    row.mailAdditionalRecipientsBcc = input.mail_additional_recipients_bcc;
    row.mailSubject = input.mail_subject;
    row.mailTemplate = input.mail_template;
    row.scheduleRrule = input.schedule_rrule;
    row.scheduleRruleTime = input.schedule_rrule_time;
    row.timezone = place.event ? place.event.timezone : input.timezone;
    const parsed = parseSchedule(row.scheduleRrule);
    row.scheduleNextRun =
      'rule' in parsed ? nextRun(parsed.rule, row.scheduleRruleTime, row.timezone, new Date()) : null;
    row.errorCounter = 0;
  }

  private async present(row: ScheduledExport): Promise<ScheduledExportJson> {
    const emails = await this.users.emailsByIds([row.ownerId]);
    return toScheduledExportJson(row, emails.get(row.ownerId) ?? '');
  }
}
