/** The words a `scale` may be written as, and the multiplier each stands for. */
export const scaleWords: Readonly<Record<string, number>> = {
  units: 1, ones: 1, thousands: 1e3, millions: 1e6, billions: 1e9, trillions: 1e12,
};
