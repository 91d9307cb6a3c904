package dice

import "math"

// Monte Carlo estimates: the generic part of a sampler. What is sampled (a
// game's shot, say) belongs to the game; a display should use exact odds,
// estimates cross-check them.

// EstimatedDist is a sampled distribution with standard errors: P[k] is the
// share of runs with outcome k, SE[k] = sqrt(P[k](1−P[k])/runs); MeanSE is the
// standard error of Mean (sample standard deviation / sqrt(runs)).
type EstimatedDist struct {
	P      []float64 `json:"p"`
	SE     []float64 `json:"se"`
	Mean   float64   `json:"mean"`
	MeanSE float64   `json:"mean_se"`
}

// EstimateDist is the sampled distribution of runs trials of which counts[k]
// had outcome k (the counts add up to runs).
func EstimateDist(counts []int, runs int) EstimatedDist {
	n := float64(runs)
	e := EstimatedDist{P: make([]float64, len(counts)), SE: make([]float64, len(counts))}
	var sum, sum2 float64
	for k, c := range counts {
		p := float64(c) / n
		e.P[k] = p
		e.SE[k] = math.Sqrt(p * (1 - p) / n)
		sum += float64(k) * float64(c)
		sum2 += float64(k) * float64(k) * float64(c)
	}
	e.Mean = sum / n
	if runs > 1 {
		v := (sum2 - sum*sum/n) / (n - 1)
		e.MeanSE = math.Sqrt(max(v, 0) / n)
	}
	return e
}
