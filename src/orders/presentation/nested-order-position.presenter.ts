import { OmitType } from '@nestjs/swagger';
import { OrderPositionJson } from './order.presenter';

/** The order of a nested position: its code and the slug of its event (compat §3.3 `expand`). */
export class NestedOrderRefJson {
  code!: string;
  /** Event slug. */
  event!: string;
}

/**
 * An order position nested in another resource (a gift card's `owner_ticket`, a medium's `linked_orderposition`
 * when expanded): the order position resource with `order` as `{code, event}` (compat §3.3, §3.4).
 */
export class NestedOrderPositionJson extends OmitType(OrderPositionJson, ['order'] as const) {
  order!: NestedOrderRefJson;
}
