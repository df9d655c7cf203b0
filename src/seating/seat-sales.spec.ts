import { seatName } from './seat-sales.service';

describe('seatName', () => {
  it('joins zone, row label or "Row n", seat label or "Seat n", skipping empty parts', () => {
    const base = { zone_name: 'Main', row_name: '2', row_label: null, seat_number: '7', seat_label: null };
    expect(seatName(base)).toBe('Main, Row 2, Seat 7');
    expect(seatName({ ...base, row_label: 'Front', seat_label: 'A7' })).toBe('Main, Front, A7');
    expect(seatName({ ...base, zone_name: '', row_name: '' })).toBe('Seat 7');
  });
});
