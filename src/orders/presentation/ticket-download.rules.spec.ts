import {
  generatesTicket,
  orderDownloadRefusal,
  positionDownloadRefusal,
  TICKET_DOWNLOAD_DEFAULTS,
  TICKET_DOWNLOAD_MESSAGES as M,
} from './ticket-download.rules';

const order = (status: string, requireApproval = false, validIfPending = false) => ({
  status,
  requireApproval,
  validIfPending,
});
const position = (over: Partial<Parameters<typeof generatesTicket>[0]> = {}) => ({
  addonTo: null,
  canceled: false,
  itemAdmission: false,
  itemGenerateTickets: null,
  ...over,
});

describe('ticket download rule (pretix api/views/order.py download, serializers downloads)', () => {
  it('allows paid orders, pending ones only when valid_if_pending (or the event allows) and not awaiting approval', () => {
    expect(orderDownloadRefusal(order('p'))).toBeNull();
    expect(orderDownloadRefusal(order('n'))).toBe(M.pending);
    expect(orderDownloadRefusal(order('n', false, true))).toBeNull();
    expect(orderDownloadRefusal(order('n', true, true))).toBe(M.pending);
    expect(orderDownloadRefusal(order('n'), { ...TICKET_DOWNLOAD_DEFAULTS, pending: true })).toBeNull();
    expect(orderDownloadRefusal(order('c'))).toBe(M.canceledOrExpired);
    expect(orderDownloadRefusal(order('e', false, true))).toBe(M.canceledOrExpired);
  });

  it("follows the product's generate_tickets, else the add-on and admission settings; never canceled positions", () => {
    expect(generatesTicket(position())).toBe(true);
    expect(generatesTicket(position({ addonTo: 7 }))).toBe(false);
    expect(generatesTicket(position({ addonTo: 7 }), { ...TICKET_DOWNLOAD_DEFAULTS, addons: true })).toBe(
      true,
    );
    expect(generatesTicket(position(), { ...TICKET_DOWNLOAD_DEFAULTS, nonAdmission: false })).toBe(false);
    expect(
      generatesTicket(position({ itemAdmission: true }), {
        ...TICKET_DOWNLOAD_DEFAULTS,
        nonAdmission: false,
      }),
    ).toBe(true);
    expect(generatesTicket(position({ addonTo: 7, itemGenerateTickets: true }))).toBe(true);
    expect(generatesTicket(position({ itemGenerateTickets: false }))).toBe(false);
    expect(generatesTicket(position({ canceled: true, itemGenerateTickets: true }))).toBe(false);
  });

  it('refuses a position for its order first, then for its product', () => {
    expect(positionDownloadRefusal(order('c'), position({ itemGenerateTickets: false }))).toBe(
      M.canceledOrExpired,
    );
    expect(positionDownloadRefusal(order('p'), position({ itemGenerateTickets: false }))).toBe(M.product);
    expect(positionDownloadRefusal(order('p'), position())).toBeNull();
  });
});
