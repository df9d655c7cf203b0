import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import {
  MembershipTypeReads,
  MembershipTypeReadsModule,
} from '../../catalogue/membership-types/membership-type-reads';
import { CustomersCoreModule } from '../../customers/customers-core.module';
import { GrantingPosition, MembershipGrants } from '../../customers/membership-grants.service';
import { membershipValidity } from '../../customers/membership-validity.rules';
import { SubEventQueries } from '../../organizers/subevents/subevent.queries';
import { TenancyQueries } from '../../organizers/tenancy.queries';
import { OrderHooks, OrderTransitionContext } from '../writing/order-hooks';
import { OrderWritingModule } from '../writing/order-writing.module';
import { OrderCustomerQueries } from './order-customer.queries';

/**
 * Memberships granted by paid orders (pretix `signal_listener_issue_memberships` on `order_paid` and
 * `order_changed`): whenever an order of a customer is placed paid, paid or changed while paid, each live
 * position whose item has `grant_membership_type` and no membership yet grants one to the order's customer
 * (validity per {@link membershipValidity}, attendee name parts of the position, test mode of the order). Runs in
 * the transaction of the change, through the orders' {@link OrderHooks}.
 */
@Injectable()
export class MembershipGrantHook implements OnModuleInit {
  constructor(
    private readonly hooks: OrderHooks,
    private readonly queries: OrderCustomerQueries,
    private readonly types: MembershipTypeReads,
    private readonly grants: MembershipGrants,
  ) {}

  onModuleInit(): void {
    this.hooks.onTransition((ctx) => this.onTransition(ctx));
  }

  private async onTransition(ctx: OrderTransitionContext): Promise<void> {
    const { em, order, event } = ctx;
    if (ctx.transition === 'canceled' || order.status !== 'p' || !order.customer) return;
    const positions = await this.queries.livePositions(em, order.id);
    const grants = await this.types.grantsOfItems(
      em,
      positions.map((p) => p.itemId),
    );
    const granting = positions.filter((p) => grants.has(p.itemId));
    if (granting.length === 0) return;
    const dates = await new SubEventQueries().subeventLabels(
      em,
      granting.flatMap((p) => (p.subeventId === null ? [] : [p.subeventId])),
    );
    const [own] = await new TenancyQueries().eventsByIds(em, order.organizerId, [event.id]);
    const now = new Date();
    const rows: GrantingPosition[] = granting.map((p) => {
      const grant = grants.get(p.itemId)!;
      const date = p.subeventId === null ? undefined : dates.get(p.subeventId);
      return {
        positionId: p.id,
        membershipTypeId: grant.membershipTypeId,
        validity: membershipValidity(
          grant,
          {
            dateFrom: date?.dateFrom ?? own.dateFrom,
            dateTo: date ? date.dateTo : own.dateTo,
            timezone: event.timezone,
          },
          now,
        ),
        attendeeNameParts: Object.keys(p.attendeeNameParts ?? {}).length > 0 ? p.attendeeNameParts : null,
      };
    });
    await this.grants.grant(em, order.organizerId, order.customer, order.testmode, rows);
  }
}

/** Registers {@link MembershipGrantHook} with the orders' hooks (imported by `OrdersModule`). */
@Module({
  imports: [OrderWritingModule, CustomersCoreModule, MembershipTypeReadsModule],
  providers: [MembershipGrantHook, OrderCustomerQueries],
})
export class MembershipGrantHookModule {}
