import { Inject, Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { EntityManager, In } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import { ChangeRenderer, ChangeRenderScope, RendersChanges } from '../../audit/change-renderer';
import { refIds, type ObjectRef } from '../../common/listing/object-refs';
import type { Principal } from '../../auth/principal';
import { ErrorCollector, NotFound, Refused, ValidationFailed } from '../../common/errors';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { uniqueAsValidation } from '../../common/persistence/unique';
import { Complete, mergeInput, WriteMode } from '../../common/persistence/write';
import { toI18n } from '../../common/values/i18n';
import type { Organizer } from '../organizer.entity';
import { BUILT_IN_IDENTIFIERS } from './built-in-channels';
import type { CreateSalesChannelDto } from './sales-channel.dto';
import { SalesChannel } from './sales-channel.entity';
import { SalesChannelJson, toSalesChannelJson } from './sales-channel.presenter';
import { SalesChannelQueries } from './sales-channel.queries';
import {
  SALES_CHANNEL_ORDERS,
  SALES_CHANNEL_REFERENCES,
  SalesChannelOrders,
  SalesChannelReferences,
} from './sales-channel-usage.port';

type ChannelInput = Complete<CreateSalesChannelDto>;

const DEFAULTS = { type: 'api', position: 0 } satisfies Partial<ChannelInput>;
const UNIQUE_INDEX = 'uq_sales_channel_identifier';
const DUPLICATE = 'A sales channel with this identifier already exists.';
const CONTENT_TYPE = 'saleschannel';

/**
 * Sales channels of one organizer (`O/saleschannels/`, pretix `SalesChannelViewSet`): list, detail, create,
 * update, delete. Rules and messages as pretix's serializer: only `api` channels with an `api.` identifier can be
 * created; `identifier` and `type` never change; built-in channels and channels with orders cannot be deleted
 * (403 "Can only be deleted if unused."); a deleted channel leaves the `limit_sales_channels` of the catalogue
 * and of events. Logs `pretix.saleschannel.created`, `pretix.sales_channel.changed` (pretix's spelling),
 * `pretix.saleschannel.deleted`.
 */
@Injectable()
@RendersChanges('saleschannel')
export class SalesChannelsService implements ChangeRenderer {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly queries: SalesChannelQueries,
    @Inject(SALES_CHANNEL_ORDERS) private readonly orders: SalesChannelOrders,
    @Inject(SALES_CHANNEL_REFERENCES) private readonly references: SalesChannelReferences,
  ) {}

  /** One page (filters `type`, `identifier`). Two statements. */
  list(organizer: Organizer, filters: QueryFilters, page: PageRequest): Promise<Paginated<SalesChannelJson>> {
    return this.queries.page(this.db, organizer.id, filters, page, (rows) => rows.map(toSalesChannelJson));
  }

  /** The change feed's channels (by database id, the log's object id) as {@link get} answers them. One statement. */
  async renderChanges(scope: ChangeRenderScope, refs: readonly ObjectRef[]): Promise<Map<number, unknown>> {
    const found = await this.db.find(SalesChannel, {
      where: { id: In(refIds(refs)), organizerId: scope.organizer.id },
    });
    return new Map(found.map((c) => [c.id, toSalesChannelJson(c)]));
  }

  /** @throws NotFound for an identifier the organizer has no channel with */
  async get(organizer: Organizer, identifier: string): Promise<SalesChannelJson> {
    const channel = await this.queries.find(this.db, organizer.id, identifier);
    if (!channel) throw new NotFound();
    return toSalesChannelJson(channel);
  }

  /** @throws ValidationFailed for a type other than `api`, an identifier not starting with `api.`, a duplicate */
  async create(
    organizer: Organizer,
    principal: Principal,
    body: CreateSalesChannelDto,
  ): Promise<SalesChannelJson> {
    const input = mergeInput(body, { ...DEFAULTS } as ChannelInput);
    const errors = new ErrorCollector();
    if (input.type !== 'api') {
      errors.add('type', "You can currently only create channels of type 'api' through the API.");
    }
    if (!input.identifier.startsWith('api.')) {
      errors.add('identifier', "Your identifier needs to start with 'api.'.");
    }
    errors.throwIfAny();
    return uniqueAsValidation(UNIQUE_INDEX, 'identifier', DUPLICATE, () =>
      this.db.transaction(async (em) => {
        if (await this.queries.find(em, organizer.id, input.identifier)) {
          throw ValidationFailed.field('identifier', DUPLICATE);
        }
        const channel = em.create(SalesChannel, {
          organizerId: organizer.id,
          identifier: input.identifier,
          type: 'api',
          label: toI18n(input.label),
          position: input.position,
        });
        await em.save(channel);
        await this.log(em, organizer, principal, channel.id, 'pretix.saleschannel.created', {
          ...body,
          id: channel.id,
        });
        return toSalesChannelJson(channel);
      }),
    );
  }

  /**
   * PUT (`replace`) or PATCH (`patch`): `label` and `position` change; `identifier` and `type`, when sent, must
   * be the current ones.
   * @throws NotFound for an unknown identifier
   * @throws ValidationFailed "You cannot change the identifier/type of a sales channel."
   */
  async update(
    organizer: Organizer,
    identifier: string,
    principal: Principal,
    body: Partial<CreateSalesChannelDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<SalesChannelJson> {
    return this.db.transaction(async (em) => {
      const channel = await this.queries.find(em, organizer.id, identifier, true);
      if (!channel) throw new NotFound();
      const before = toSalesChannelJson(channel);
      const base =
        mode === 'patch' ? before : ({ ...DEFAULTS, identifier: channel.identifier } as ChannelInput);
      const input = mergeInput(body, base);
      const errors = new ErrorCollector();
      if (input.identifier !== channel.identifier) {
        errors.add('identifier', 'You cannot change the identifier of a sales channel.');
      }
      if (input.type !== channel.type) errors.add('type', 'You cannot change the type of a sales channel.');
      errors.throwIfAny();
      channel.label = toI18n(input.label);
      channel.position = input.position;
      const after = toSalesChannelJson(channel);
      if (isDeepStrictEqual(before, after)) return after;
      await em.save(channel);
      await this.log(em, organizer, principal, channel.id, 'pretix.sales_channel.changed', { ...body });
      return after;
    });
  }

  /**
   * Deletes an unused channel and removes it from every `limit_sales_channels` of the organizer.
   * @throws NotFound for an unknown identifier
   * @throws Refused (403) "Can only be deleted if unused." for a built-in channel or one with orders
   */
  async delete(organizer: Organizer, identifier: string, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      const channel = await this.queries.find(em, organizer.id, identifier, true);
      if (!channel) throw new NotFound();
      if (
        BUILT_IN_IDENTIFIERS.includes(channel.identifier) ||
        (await this.orders.channelHasOrders(em, organizer.id, channel.identifier))
      ) {
        throw new Refused('Can only be deleted if unused.');
      }
      await this.log(em, organizer, principal, channel.id, 'pretix.saleschannel.deleted', { id: channel.id });
      const eventIds = await this.queries.eventIds(em, organizer.id);
      await this.references.forgetChannel(em, eventIds, channel.identifier);
      await this.queries.forgetOnEvents(em, organizer.id, channel.identifier);
      await em.delete(SalesChannel, { id: channel.id });
    });
  }

  private log(
    em: EntityManager,
    organizer: Organizer,
    principal: Principal,
    objectId: number,
    action: string,
    data: object,
  ): Promise<void> {
    return this.audit.record(em, principal, {
      organizerId: organizer.id,
      eventId: null,
      contentType: CONTENT_TYPE,
      objectId,
      action,
      data: { ...data },
    });
  }
}
