/** A layout of `rows` rows of `perRow` seats in one zone, categories `Stalls` (first row) and `Balcony`. */
export function sampleLayout(rows = 2, perRow = 3): Record<string, unknown> {
  return {
    name: 'Hall',
    size: { width: 800, height: 600 },
    categories: [
      { name: 'Stalls', color: '#ff0000' },
      { name: 'Balcony', color: '#00ff00' },
    ],
    zones: [
      {
        name: 'Main',
        position: { x: 0, y: 0 },
        rows: Array.from({ length: rows }, (_, r) => ({
          row_number: String(r + 1),
          row_label: r === 0 ? 'Front' : null,
          position: { x: 0, y: 40 * r },
          seats: Array.from({ length: perRow }, (_, s) => ({
            seat_guid: `r${r + 1}-s${s + 1}`,
            seat_number: String(s + 1),
            position: { x: 30 * s, y: 0 },
            category: r === 0 ? 'Stalls' : 'Balcony',
          })),
        })),
      },
    ],
  };
}
