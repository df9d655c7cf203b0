import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { DataSource, EntityManager, In } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import { ChangeRenderer, ChangeRenderScope, RendersChanges } from '../audit/change-renderer';
import { refIds, type ObjectRef } from '../common/listing/object-refs';
import type { Principal } from '../auth/principal';
import { ErrorCollector } from '../common/errors';
import { paginate } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { findOrNotFound } from '../common/persistence/find';
import { AppConfig } from '../config/app-config';
import type { Organizer } from '../organizers/organizer.entity';
import { TenancyQueries } from '../organizers/tenancy.queries';
import { invalidActionType, WEBHOOK_ACTION_TYPES } from './action-types';
import type { CreateWebhookDto } from './webhook.dto';
import { Webhook } from './webhook.entity';
import { toWebhookJson, WebhookJson } from './webhook.presenter';
import { newWebhookSecret } from './webhook-secret';
import { WebhookQueries } from './webhook.queries';
import { isPrivateUrl, PRIVATE_TARGET } from './webhook-target';

/** The merged input of a create, PUT or PATCH. */
interface WebhookInput {
  enabled: boolean;
  target_url: string;
  all_events: boolean;
  limit_events: string[];
  action_types: string[];
  comment: string | null;
}

const NOT_OF_ORGANIZER = 'One or more events do not belong to this organizer.';

/**
 * Webhooks of one organizer (`O/webhooks/`, compat §3.27): list, detail, create, update, disable (DELETE),
 * rotate the secret. Every change is logged (`pretix.webhook.created|changed`) in its transaction.
 */
@Injectable()
@RendersChanges('webhook')
export class WebhooksService implements ChangeRenderer {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly audit: AuditLogService,
    private readonly tenancy: TenancyQueries,
    private readonly config: AppConfig,
    private readonly webhooks: WebhookQueries,
  ) {}

  /** One page, ordered by id. Three statements whatever the page size (rows, count, event slugs). */
  async list(organizer: Organizer, page: PageRequest): Promise<Paginated<WebhookJson>> {
    const qb = this.webhooks.listOfOrganizer(this.db.manager, organizer.id);
    return paginate(qb, page, async (rows) => {
      const slugs = await this.tenancy.eventSlugs(
        this.db.manager,
        rows.flatMap((w) => w.limitEventIds),
      );
      return rows.map((w) => toWebhookJson(w, slugs));
    });
  }

  /** The change feed's webhooks as {@link get} answers them. Two statements (webhooks, event slugs). */
  async renderChanges(scope: ChangeRenderScope, refs: readonly ObjectRef[]): Promise<Map<number, unknown>> {
    const em = this.db.manager;
    const found = await em.find(Webhook, {
      where: { id: In(refIds(refs)), organizerId: scope.organizer.id },
    });
    const slugs = await this.tenancy.eventSlugs(
      em,
      found.flatMap((w) => w.limitEventIds),
    );
    return new Map(found.map((w) => [w.id, toWebhookJson(w, slugs)]));
  }

  /** @throws NotFound for an id that is not a webhook of this organizer */
  async get(organizer: Organizer, id: number): Promise<WebhookJson> {
    return this.present(this.db.manager, await this.load(this.db.manager, organizer, id, false));
  }

  /**
   * Creates a webhook with a new secret, answered in full this once; logs `pretix.webhook.created`.
   * @throws ValidationFailed (pretix's messages, compat §3.27)
   */
  async create(organizer: Organizer, principal: Principal, body: CreateWebhookDto): Promise<WebhookJson> {
    const input: WebhookInput = {
      enabled: body.enabled ?? true,
      target_url: body.target_url,
      all_events: body.all_events ?? !(body.limit_events && body.limit_events.length > 0),
      limit_events: body.limit_events ?? [],
      action_types: body.action_types,
      comment: body.comment ?? null,
    };
    return this.db.transaction(async (em) => {
      const eventIds = await this.validate(em, organizer, input);
      const webhook = em.create(Webhook, { organizerId: organizer.id, secret: newWebhookSecret() });
      this.apply(webhook, input, eventIds);
      await em.save(webhook);
      await this.log(em, principal, webhook, 'pretix.webhook.created', { ...body });
      return this.present(em, webhook, true);
    });
  }

  /**
   * PUT (`replace`: omitted fields reset to their defaults) or PATCH (`patch`: only the fields sent);
   * `action_types` replaces the listened set. Logs `pretix.webhook.changed` when something changed.
   * @throws NotFound, ValidationFailed
   */
  async update(
    organizer: Organizer,
    id: number,
    principal: Principal,
    body: Partial<CreateWebhookDto>,
    mode: 'replace' | 'patch',
  ): Promise<WebhookJson> {
    return this.db.transaction(async (em) => {
      const webhook = await this.load(em, organizer, id, true);
      const before = await this.present(em, webhook);
      const base: WebhookInput =
        mode === 'patch'
          ? {
              enabled: before.enabled,
              target_url: before.target_url,
              all_events: before.all_events,
              limit_events: before.limit_events,
              action_types: before.action_types,
              comment: before.comment,
            }
          : {
              enabled: true,
              target_url: '',
              all_events: !(body.limit_events && body.limit_events.length > 0),
              limit_events: [],
              action_types: [],
              comment: null,
            };
      const input: WebhookInput = { ...base };
      for (const key of Object.keys(base) as (keyof WebhookInput)[]) {
        if (body[key] !== undefined) (input as unknown as Record<string, unknown>)[key] = body[key];
      }
      if (
        mode === 'patch' &&
        body.limit_events &&
        body.limit_events.length > 0 &&
        body.all_events === undefined
      )
        input.all_events = false;
      const eventIds = await this.validate(em, organizer, input);
      this.apply(webhook, input, eventIds);
      const after = await this.present(em, webhook);
      if (!isDeepStrictEqual(before, after)) {
        await em.save(webhook);
        await this.log(em, principal, webhook, 'pretix.webhook.changed', { ...body });
      }
      return after;
    });
  }

  /** DELETE: only disables the webhook (compat §3.27), logged as `pretix.webhook.changed`. @throws NotFound */
  async disable(organizer: Organizer, id: number, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      const webhook = await this.load(em, organizer, id, true);
      if (!webhook.enabled) return;
      webhook.enabled = false;
      await em.save(webhook);
      await this.log(em, principal, webhook, 'pretix.webhook.changed', { enabled: false });
    });
  }

  /** A new secret, answered in full; the old one stops signing at once. @throws NotFound */
  async rotateSecret(organizer: Organizer, id: number, principal: Principal): Promise<WebhookJson> {
    return this.db.transaction(async (em) => {
      const webhook = await this.load(em, organizer, id, true);
      webhook.secret = newWebhookSecret();
      await em.save(webhook);
      await this.log(em, principal, webhook, 'pretix.webhook.changed', { secret: 'rotated' });
      return this.present(em, webhook, true);
    });
  }

  private load(em: EntityManager, organizer: Organizer, id: number, lock: boolean): Promise<Webhook> {
    return findOrNotFound(em, Webhook, { id, organizerId: organizer.id }, lock);
  }

  private async present(em: EntityManager, w: Webhook, fullSecret = false): Promise<WebhookJson> {
    return toWebhookJson(w, await this.tenancy.eventSlugs(em, w.limitEventIds), fullSecret);
  }

  /** pretix's validation (compat §3.27) plus the target URL rules. @returns the ids of `limit_events` */
  private async validate(em: EntityManager, organizer: Organizer, input: WebhookInput): Promise<number[]> {
    const errors = new ErrorCollector();
    let url: URL | null = null;
    try {
      url = new URL(input.target_url);
    } catch {
      url = null;
    }
    if (!url || !['http:', 'https:'].includes(url.protocol)) errors.add('target_url', 'Enter a valid URL.');
    else if (!this.config.webhookAllowPrivateTargets && isPrivateUrl(url))
      errors.add('target_url', PRIVATE_TARGET);
    const unknown = input.action_types.find((t) => !WEBHOOK_ACTION_TYPES.includes(t));
    if (unknown !== undefined) errors.add('action_types', invalidActionType(unknown));
    let ids: number[] = [];
    if (input.limit_events.length > 0) {
      const bySlug = await this.tenancy.eventIdsBySlugs(em, organizer.id, input.limit_events);
      if (input.limit_events.some((slug) => !bySlug.has(slug))) errors.add('limit_events', NOT_OF_ORGANIZER);
      else ids = [...new Set(input.limit_events.map((slug) => bySlug.get(slug)!))];
    }
    if (input.all_events && input.limit_events.length > 0)
      errors.addNonField('You can set either limit_events or all_events.');
    errors.throwIfAny();
    return ids;
  }

  private apply(w: Webhook, input: WebhookInput, eventIds: number[]): void {
    w.enabled = input.enabled;
    w.targetUrl = input.target_url;
    w.allEvents = input.all_events;
    w.limitEventIds = eventIds;
    w.actionTypes = [...new Set(input.action_types)];
    w.comment = input.comment;
  }

  private log(
    em: EntityManager,
    principal: Principal,
    w: Webhook,
    action: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    return this.audit.record(em, principal, {
      organizerId: w.organizerId,
      eventId: null,
      contentType: 'webhook',
      objectId: w.id,
      action,
      data,
    });
  }
}
