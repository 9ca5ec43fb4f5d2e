/** Uzbekistan, with a margin: [minLng, minLat, maxLng, maxLat] (kept out of the map chunk). */
export const UZ_BOUNDS = [55.9, 37.1, 73.2, 45.6] as const;

export function insideUzbekistan(lat: number, lng: number): boolean {
  return lng >= UZ_BOUNDS[0] && lat >= UZ_BOUNDS[1] && lng <= UZ_BOUNDS[2] && lat <= UZ_BOUNDS[3];
}
