package io.gantry.scheduling.tuning;

import io.gantry.scheduling.model.JobRequest;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * How much CPU and memory a simulated job really uses at its peak, as a fraction of what it requested. <b>No shipped
 * trace measures this</b> (Alibaba 2023 and Philly have requests only, Pollux none), so it is an assumption, made
 * explicit and switchable (see bench/README.md, "Tuner"):
 * <ul>
 *   <li>{@code request}: every job uses all it asked for. The conservative default: right-sizing then finds
 *       nothing to cut and no job is killed.</li>
 *   <li>{@code lognormal:CPU_MEDIAN,MEM_MEDIAN,SIGMA}: per job, peak fraction = min(1, median·e^(σ·Z)), Z standard
 *       normal, drawn from the job id and seed so every run and both tuner settings see the same usage.</li>
 * </ul>
 */
public record UsageModel(String name, double cpuMedian, double memMedian, double sigma) {

    public static final UsageModel REQUEST = new UsageModel("request", 1, 1, 0);

    public static UsageModel parse(String spec) {
        if (spec.equals("request")) {
            return REQUEST;
        }
        if (spec.startsWith("lognormal:")) {
            String[] p = spec.substring("lognormal:".length()).split(",");
            if (p.length == 3) {
                try {
                    double cpu = Double.parseDouble(p[0]);
                    double mem = Double.parseDouble(p[1]);
                    double sigma = Double.parseDouble(p[2]);
                    if (cpu > 0 && cpu <= 1 && mem > 0 && mem <= 1 && sigma >= 0) {
                        return new UsageModel(spec, cpu, mem, sigma);
                    }
                } catch (NumberFormatException e) {
                    // falls through to the message below
                }
            }
        }
        throw new IllegalArgumentException("usage model is 'request' or 'lognormal:CPU_MEDIAN,MEM_MEDIAN,SIGMA' with medians "
                + "in (0, 1] and SIGMA ≥ 0, got '" + spec + "'");
    }

    /** {peak CPU fraction, peak memory fraction} of what {@code job} requested. */
    public double[] peakFractions(JobRequest job, long seed) {
        if (sigma == 0) {
            return new double[] {cpuMedian, memMedian};
        }
        SplittableRandom rnd = new SplittableRandom(job.id().hashCode() * 0x9E3779B97F4A7C15L ^ seed);
        double zCpu = gaussian(rnd);
        double zMem = gaussian(rnd);
        return new double[] {Math.min(1, cpuMedian * Math.exp(sigma * zCpu)), Math.min(1, memMedian * Math.exp(sigma * zMem))};
    }

    private static double gaussian(SplittableRandom rnd) {
        // Box-Muller: SplittableRandom has no nextGaussian before Java 17's RandomGenerator default.
        double u = 1 - rnd.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd.nextDouble());
    }

    @Override
    public String toString() {
        return sigma == 0 && cpuMedian == 1 && memMedian == 1 ? "request"
                : String.format(Locale.ROOT, "lognormal:%s,%s,%s", cpuMedian, memMedian, sigma);
    }
}
