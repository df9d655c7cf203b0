import { layoutErrors, plannedSeats, SeatingLayout } from './seating-layout.rules';

const layout = (): SeatingLayout => ({
  name: 'Hall',
  size: { width: 100, height: 100 },
  categories: [{ name: 'A' }],
  zones: [
    {
      name: 'Z',
      rows: [
        {
          row_number: '1',
          row_label: 'Front',
          seats: [
            { seat_guid: 'g1', seat_number: '1', position: { x: 0, y: 0 }, category: 'A' },
            {
              seat_guid: 'g2',
              seat_number: '2',
              seat_label: 'Aisle',
              position: { x: 1, y: 0 },
              category: 'A',
            },
          ],
        },
      ],
    },
  ],
});

describe('seating layout rules', () => {
  it('accepts a valid layout and lists its seats in plan order', () => {
    expect(layoutErrors(layout())).toEqual([]);
    expect(plannedSeats(layout())).toEqual([
      {
        zoneName: 'Z',
        rowName: '1',
        rowLabel: 'Front',
        seatNumber: '1',
        seatLabel: null,
        seatGuid: 'g1',
        category: 'A',
      },
      {
        zoneName: 'Z',
        rowName: '1',
        rowLabel: 'Front',
        seatNumber: '2',
        seatLabel: 'Aisle',
        seatGuid: 'g2',
        category: 'A',
      },
    ]);
  });

  it('names every problem with its place', () => {
    const bad = layout() as unknown as Record<string, unknown>;
    delete bad.name;
    (bad.categories as unknown[]).push({ name: 'A' });
    expect(layoutErrors(bad)).toEqual([
      'name: required, a non-empty string.',
      'categories[1].name: "A" appears twice.',
    ]);
    expect(layoutErrors('x')).toEqual(['layout: must be an object.']);
  });
});
