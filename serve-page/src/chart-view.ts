// Observable Plot (ISC license, https://github.com/observablehq/plot; npm @observablehq/plot 0.6.17) is
// bundled into the page's script with the d3 modules it uses: about 265 kB of its 287 kB, minified.
import { barX, dot, lineY, plot, ruleX } from '@observablehq/plot';
import type { Value } from './api-types.ts';
import type { ChartChoice } from './choose-chart.ts';

/**
 * Draws a result as `choice` says, with Observable Plot (bundled with the page): horizontal bars
 * in the result's order (a ranking stays ranked), or a line with its points over dates or periods.
 * `onPick(row)` is called when a bar or point is clicked, with the result row it stands for.
 */
export function drawChart(columns: readonly string[], rows: readonly Value[][], choice: ChartChoice, units: readonly (string | undefined)[], onPick: (row: number) => void): SVGSVGElement | HTMLElement {
  const data = rows.map((row, index) => ({ index, label: row[choice.label], value: row[choice.value] as number | null }));
  const valueLabel = `${columns[choice.value]}${units[choice.value] ? ` (${units[choice.value]})` : ''}`;
  const figure = choice.kind === 'bar'
    ? plot({
      // Room for the labels beside their bars (and the axis's name above them), within reason.
      marginLeft: Math.min(220, Math.max(60, 16 + 7 * Math.max(...data.map((point) => String(point.label).length)))),
      height: Math.max(120, 28 * data.length + 60),
      marginTop: 24,
      width: 640,
      x: { label: valueLabel, grid: true },
      y: { label: columns[choice.label], labelAnchor: 'top', domain: data.map((point) => String(point.label)) },
      marks: [
        barX(data, { x: 'value', y: (point: { label: Value }) => String(point.label), fill: '#2d5bd7', title: (point: { label: Value; value: number | null }) => `${point.label}: ${point.value}` }),
        ruleX([0]),
      ],
    })
    : plot({
      width: 640,
      height: 320,
      // Years and other whole periods read as 1930, not 1,930.
      x: { label: columns[choice.label], ...(typeof data[0]?.label === 'string' ? { type: 'utc' as const } : data.every((point) => Number.isInteger(point.label)) ? { tickFormat: 'd' } : {}) },
      y: { label: valueLabel, grid: true },
      marks: [
        lineY(data, { x: (point: { label: Value }) => asX(point.label), y: 'value', stroke: '#2d5bd7' }),
        dot(data, { x: (point: { label: Value }) => asX(point.label), y: 'value', fill: '#2d5bd7', title: (point: { label: Value; value: number | null }) => `${point.label}: ${point.value}` }),
      ],
    });
  // The marks' shapes are drawn in the data's order: the n-th bar or point is the n-th row.
  const shapes = figure.querySelectorAll<SVGElement>(choice.kind === 'bar' ? 'g[aria-label="bar"] rect' : 'g[aria-label="dot"] circle');
  shapes.forEach((shape, index) => {
    shape.style.cursor = 'pointer';
    shape.addEventListener('click', () => onPick(data[index]!.index));
  });
  figure.setAttribute('role', 'img');
  figure.setAttribute('aria-label', `${choice.kind === 'bar' ? 'Bar chart' : 'Line chart'} of ${valueLabel} by ${columns[choice.label]}`);
  return figure;
}

/** A date as a Date (the x axis is time), a period or number as itself. */
function asX(label: Value): Date | Value {
  return typeof label === 'string' ? new Date(label.length === 10 ? `${label}T00:00:00Z` : label) : label;
}
