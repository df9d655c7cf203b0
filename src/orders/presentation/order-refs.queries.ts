import { Injectable } from '@nestjs/common';
import { SqlFragment, sqlFragment } from '../../common/persistence/sql-fragment';

/**
 * SQL fragments by which contexts above orders read an order's reference with their own rows, in the same
 * statement (gift card transactions show the `order` code of their payment or refund). Stateless.
 */
@Injectable()
export class OrderRefQueries {
  /** Fragment, scalar subquery: the code of the order whose id is the SQL expression `orderId` (null for none). */
  orderCodeOf(orderId: string): SqlFragment {
    return sqlFragment(`(SELECT oc.code FROM orders oc WHERE oc.id = ${orderId})`);
  }
}
