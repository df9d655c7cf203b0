import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CustomerReads } from '../customers/customer-reads.service';
import { GiftCardReads } from '../giftcards/giftcard-reads.service';
import { OrderPositionReads } from '../orders/presentation/order-position-reads.service';
import { OrganizerRef, TenancyQueries } from '../organizers/tenancy.queries';
import type { ReusableMedium } from './reusable-medium.entity';
import { ReusableMediumJson, toReusableMediumJson } from './reusable-medium.presenter';

/** `?expand=` names of the media endpoints (spec "Reusable media"). */
export const MEDIUM_EXPANDS = [
  'linked_giftcard',
  'linked_giftcard.owner_ticket',
  'linked_orderposition',
  'customer',
] as const;

/**
 * Presents media for the viewing organizer in bulk: a fixed number of statements for any number of media. Slugs
 * of other organizers (lookup results under an acceptance) one statement, none otherwise; linked gift cards
 * (with their owner tickets for `linked_giftcard.owner_ticket`, which implies `linked_giftcard`) through the gift
 * card context, linked order positions through the orders context, customers through the customers context
 * (the viewer's own; a medium of another organizer shows none), each only when expanded.
 */
@Injectable()
export class ReusableMediaPresentation {
  constructor(
    private readonly giftcards: GiftCardReads,
    private readonly positions: OrderPositionReads,
    private readonly customers: CustomerReads,
  ) {}

  async present(
    em: EntityManager,
    media: ReusableMedium[],
    viewer: OrganizerRef,
    expand: ReadonlySet<string>,
  ): Promise<ReusableMediumJson[]> {
    if (media.length === 0) return [];
    const slugs = await new TenancyQueries().organizerSlugs(
      em,
      media.map((m) => m.organizerId).filter((id) => id !== viewer.id),
    );
    slugs.set(viewer.id, viewer.slug);
    const expandOwner = expand.has('linked_giftcard.owner_ticket');
    const cards =
      expandOwner || expand.has('linked_giftcard')
        ? await this.giftcards.presentByIds(
            em,
            ids(media.map((m) => m.linkedGiftcardId)),
            viewer,
            expandOwner,
          )
        : undefined;
    const positions = expand.has('linked_orderposition')
      ? await this.positions.nested(em, ids(media.map((m) => m.linkedOrderpositionId)))
      : undefined;
    const customers = expand.has('customer')
      ? await this.customers.present(
          em,
          viewer.id,
          media.flatMap((m) => (m.customer !== null && m.organizerId === viewer.id ? [m.customer] : [])),
        )
      : undefined;
    return media.map((m) =>
      toReusableMediumJson(m, slugs.get(m.organizerId) ?? '', {
        ...(customers ? { customer: m.customer === null ? null : (customers.get(m.customer) ?? null) } : {}),
        ...(cards ? { linkedGiftcard: lookup(cards, m.linkedGiftcardId) } : {}),
        ...(positions ? { linkedOrderposition: lookup(positions, m.linkedOrderpositionId) } : {}),
      }),
    );
  }
}

function ids(values: (number | null)[]): number[] {
  return values.filter((v): v is number => v !== null);
}

function lookup<T>(map: ReadonlyMap<number, T>, id: number | null): T | null {
  return id === null ? null : (map.get(id) ?? null);
}
