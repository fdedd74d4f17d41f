// heavyCalc of study A: the sum over i = from .. to-1 of
// (sqrt(i) * sin(i)) * (log(i + 1) * cos(i / 2)), a plain loop of doubles.
// heavyCalc(N) of the paper is heavyCalcRange(0, N).
export function heavyCalcRange(from, to) {
  let sum = 0;
  for (let i = from; i < to; i++) {
    sum += (Math.sqrt(i) * Math.sin(i)) * (Math.log(i + 1) * Math.cos(i / 2));
  }
  return sum;
}

export function heavyCalc(n) {
  return heavyCalcRange(0, n);
}

// Split [0, n) into `parts` contiguous ranges (the last takes the remainder).
export function splitRange(n, parts) {
  const out = [];
  const step = Math.floor(n / parts);
  for (let k = 0; k < parts; k++) {
    out.push([k * step, k === parts - 1 ? n : (k + 1) * step]);
  }
  return out;
}
