// Loss and accuracy curves with uPlot: train and validation loss on the same axes, x in epochs.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const SERIES = {
  loss: [['train loss', 'trainLoss', '#2563eb'], ['validation loss', 'validationLoss', '#ea580c']],
  // The runner measures accuracy on the validation split at each epoch end (no running train accuracy).
  accuracy: [['validation accuracy', 'validationAccuracy', '#ea580c']],
};

export function createChart(container, kind) {
  const lines = SERIES[kind];
  let planned = 1;
  const plot = new uPlot({
    width: Math.max(320, container.clientWidth || 480),
    height: 240,
    // x from 0 to the planned epochs, so the curve grows to the right instead of stretching.
    scales: { x: { time: false, range: (u, min, max) => [0, Math.max(max ?? 1, planned)] },
      y: kind === 'accuracy' ? { range: [0, 1] } : { auto: true } },
    axes: [{ label: 'epoch' }, { label: kind }],
    series: [{ label: 'epoch' }, ...lines.map(([label, , stroke]) => ({ label, stroke, width: 2, spanGaps: true,
      points: { show: true, size: 5 } }))],
  }, [[], ...lines.map(() => [])], container);
  new ResizeObserver(() => plot.setSize({ width: Math.max(320, container.clientWidth), height: 240 })).observe(container);
  let updates = 0;
  return {
    /** Redraws from chart columns (model.chartSeries); the container counts its redraws and points for tests. */
    update(series, plannedEpochs) {
      planned = plannedEpochs || planned;
      plot.setData([series.x, ...lines.map(([, key]) => series[key])]);
      container.dataset.points = String(series.x.length);
      container.dataset.updates = String(++updates);
    },
  };
}
