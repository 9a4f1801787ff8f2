package io.gantry.cli.train;

import io.gantry.cli.bench.LineChart;
import io.gantry.scheduling.sac.SacTraining;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** The learning curves of a training run, one PNG each ({@code learning-curves-<tag>.png}). */
final class TrainingCharts {

    private TrainingCharts() {
    }

    /**
     * @param validated {episode, validation avg JCT} pairs, episode 0 = before training; empty without validation
     */
    static void write(Path dir, List<SacTraining.EpisodeLog> logs, List<double[]> validated) throws IOException {
        chart(dir, "jct", "average JCT per training episode", "average JCT (s)", logs, Map.of("avg JCT", SacTraining.EpisodeLog::avgJctS));
        chart(dir, "return", "episode return", "return", logs, Map.of("return", SacTraining.EpisodeLog::episodeReturn));
        Map<String, ToDoubleFunction<SacTraining.EpisodeLog>> ea = new LinkedHashMap<>();
        ea.put("policy entropy (nats)", SacTraining.EpisodeLog::policyEntropy);
        ea.put("alpha", SacTraining.EpisodeLog::alpha);
        chart(dir, "entropy-alpha", "entropy and temperature", "value", logs, ea);
        Map<String, ToDoubleFunction<SacTraining.EpisodeLog>> losses = new LinkedHashMap<>();
        losses.put("critic loss", SacTraining.EpisodeLog::criticLoss);
        losses.put("actor loss (objective)", SacTraining.EpisodeLog::actorLoss);
        chart(dir, "losses", "mean losses per episode", "loss", logs, losses);
        if (!validated.isEmpty()) {
            LineChart c = new LineChart("validation split: greedy avg JCT after each episode", "episode",
                    "avg JCT, mean over loads (s)", false).fitY().wholeX();
            c.add(new LineChart.Series("validation", validated.stream().mapToDouble(p -> p[0]).toArray(),
                    validated.stream().mapToDouble(p -> p[1]).toArray()));
            double start = validated.get(0)[1];
            double last = validated.get(validated.size() - 1)[0];
            c.add(new LineChart.Series("before training", new double[] {0, last}, new double[] {start, start}));
            c.write(dir.resolve("learning-curves-validation.png"));
        }
    }

    private static void chart(Path dir, String tag, String title, String yLabel, List<SacTraining.EpisodeLog> logs,
                              Map<String, ToDoubleFunction<SacTraining.EpisodeLog>> series) throws IOException {
        LineChart c = new LineChart(title, "episode", yLabel, false).wholeX();
        for (Map.Entry<String, ToDoubleFunction<SacTraining.EpisodeLog>> e : series.entrySet()) {
            List<double[]> pts = new ArrayList<>();
            for (SacTraining.EpisodeLog l : logs) {
                double y = e.getValue().applyAsDouble(l);
                if (Double.isFinite(y)) {
                    pts.add(new double[] {l.episode(), y});
                }
            }
            c.add(new LineChart.Series(e.getKey(), pts.stream().mapToDouble(p -> p[0]).toArray(),
                    pts.stream().mapToDouble(p -> p[1]).toArray()));
        }
        c.write(dir.resolve("learning-curves-" + tag + ".png"));
    }
}
