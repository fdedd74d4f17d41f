# The expected numbers of tests/unit/test_verdict.c, by formula in R
# (r-base-core; run: Rscript tests/unit/verdict_reference.R). The verdicts
# compare on the log scale: log R +- c se with the delta-method se
# sqrt(c_a / n_a + c_b / n_b), c a run's relative variance: the larger of
# s^2 / m^2 and expm1(var(log x)) (stats/logratio.h), the Welch df of its two
# parts, the floor of the smallest; c is the studentized range quantile
# over sqrt 2 and d Hsu's one-sided MCB constant, both by integrate() and
# uniroot() (R's qtukey stops its root search at 1e-4, too coarse here).
s_density <- function(s, df) dchisq(df * s^2, df) * 2 * df * s
over_s <- function(inner, x, df) {
  if (is.infinite(df)) return(inner(x))
  integrate(function(s) inner(x * s) * s_density(s, df), 0, Inf, rel.tol = 1e-11, abs.tol = 1e-13)$value
}
# P(range of k standard normals <= w) and P(max (Z_i - Z_0) / sqrt 2 <= w).
range_cdf <- function(k) function(w) sapply(w, function(ww) k * integrate(function(z)
  dnorm(z) * pmax(pnorm(z + ww) - pnorm(z), 0)^(k - 1), -Inf, Inf, rel.tol = 1e-12, abs.tol = 1e-14)$value)
mcb_cdf <- function(k) function(w) sapply(w, function(ww) integrate(function(z)
  dnorm(z) * pnorm(z + sqrt(2) * ww)^(k - 1), -Inf, Inf, rel.tol = 1e-12, abs.tol = 1e-14)$value)
crit <- function(k, df, alpha = 0.05)
  uniroot(function(q) over_s(range_cdf(k), q, df) - (1 - alpha), c(0.1, 50), tol = 1e-13)$root / sqrt(2)
crit_eq <- function(k, df, alpha = 0.05)
  uniroot(function(q) over_s(mcb_cdf(k), q, df) - (1 - alpha), c(0, 50), tol = 1e-13)$root
range_sf <- function(q, k, df) 1 - over_s(range_cdf(k), q, df)

rel_var <- function(x) max(var(x) / mean(x)^2, expm1(var(log(x)))) / length(x)
welch_df <- function(a, b) {
  va <- rel_var(a); vb <- rel_var(b)
  (va + vb)^2 / (va^2 / (length(a) - 1) + vb^2 / (length(b) - 1))
}
case <- function(name, best, others) {
  k <- length(others) + 1
  df <- floor(min(sapply(others, welch_df, b = best)))
  c <- crit(k, df); d <- crit_eq(k, df)
  cat(sprintf("%s df %d crit %.15g crit_eq %.15g\n", name, df, c, d))
  for (o in others) {
    lr <- log(mean(o) / mean(best)); se <- sqrt(rel_var(o) + rel_var(best)); t <- lr / se
    cat(sprintf("  ratio %.15g ci %.15g %.15g eq %.15g %.15g t %.15g p_adj %.15g\n",
                mean(o) / mean(best), exp(lr - c * se), exp(lr + c * se),
                exp(lr - d * se), exp(lr + d * se), t, range_sf(sqrt(2) * abs(t), k, df)))
  }
}
case("worse/near", c(100, 102, 98, 101, 99), list(c(110, 112, 108, 111, 109), c(104, 99, 107, 101, 103)))
case("equivalent", c(100.0, 100.1, 99.9, 100.05, 99.95), list(c(101.0, 101.1, 100.9, 101.05, 100.95)))
case("wide", c(100, 95, 105), list(c(125, 90, 160)))
case("higher", c(1000, 1010, 990, 1005, 995), list(c(900, 910, 890, 905, 895)))
# test_analyze.c's clear winner and two-config tie; analyze/0012-verdicts' f
case("clear", c(100, 101, 99, 100, 102), list(c(130, 131, 129, 128, 132)))
case("tie2", c(100, 102, 98, 101, 99), list(c(100.5, 102.5, 98.5, 101.5, 99.5)))
case("limit", c(1, 1.1, 1.2), list(c(1.3, 1.4, 1.5)))
for (a in list(c(2, Inf), c(2, 8), c(5, Inf), c(5, 18), c(15, 4), c(15, 38), c(3, 1)))
  cat(sprintf("crit_eq k=%g df=%g %.12f\n", a[1], a[2], crit_eq(a[1], a[2])))
cat(sprintf("qt(0.95, 8) %.15g mcb_cdf k=5 df=10 at 2: %.12f\n", qt(0.95, 8), over_s(mcb_cdf(5), 2, 10)))
