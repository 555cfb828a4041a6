// survival:aft's noise distributions and loss (XGBoost 1.7 probability_distribution.h and
// survival_util.h): the negative log-likelihood of an interval [lower, upper] for the
// log-time model log T = margin + sigma * Z, its gradient and hessian in the margin, all in
// double, with XGBoost's limits where the ratios overflow and its clipping of the result.
// Shared by the objective (objective_aft.cc) and the aft-nloglik metric (metric_survival.cc).
#pragma once

#include <cmath>
#include <limits>

namespace treering::booster::aft {

enum class Censoring { kUncensored, kRight, kLeft, kInterval };

inline constexpr double kPi = 3.14159265358979323846;
// The range gradients and hessians are clipped to: XGBoost's regularisation, which keeps a
// row far outside its interval from dominating a leaf and no row's hessian at 0.
inline constexpr double kMinGradient = -15.0;
inline constexpr double kMaxGradient = 15.0;
inline constexpr double kMinHessian = 1e-16;
inline constexpr double kMaxHessian = 15.0;
inline constexpr double kEps = 1e-12;  // smallest likelihood / denominator

inline double Clip(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

struct Normal {
  static double Pdf(double z) { return std::exp(-z * z / 2.0) / std::sqrt(2.0 * kPi); }
  static double Cdf(double z) { return 0.5 * (1 + std::erf(z / std::sqrt(2.0))); }
  static double GradPdf(double z) { return -z * Pdf(z); }
  static double HessPdf(double z) { return (z * z - 1.0) * Pdf(z); }
  // XGBoost's limits of the gradient / hessian where the denominator underflows (z -> +-inf;
  // `positive`: the z side is > 0).
  static double LimitGrad(Censoring c, bool positive, double /*sigma*/) {
    switch (c) {
      case Censoring::kRight:
        return positive ? kMinGradient : 0.0;
      case Censoring::kLeft:
        return positive ? 0.0 : kMaxGradient;
      default:
        return positive ? kMinGradient : kMaxGradient;
    }
  }
  static double LimitHess(Censoring c, bool positive, double sigma) {
    switch (c) {
      case Censoring::kRight:
        return positive ? 1.0 / (sigma * sigma) : kMinHessian;
      case Censoring::kLeft:
        return positive ? kMinHessian : 1.0 / (sigma * sigma);
      default:
        return 1.0 / (sigma * sigma);
    }
  }
};

struct Logistic {
  static double Pdf(double z) {
    const double w = std::exp(z);
    const double d = 1 + w;
    return std::isinf(w) || std::isinf(w * w) ? 0.0 : w / (d * d);
  }
  static double Cdf(double z) {
    const double w = std::exp(z);
    return std::isinf(w) ? 1.0 : w / (1 + w);
  }
  static double GradPdf(double z) {
    const double w = std::exp(z);
    return std::isinf(w) ? 0.0 : Pdf(z) * (1 - w) / (1 + w);
  }
  static double HessPdf(double z) {
    const double w = std::exp(z);
    if (std::isinf(w) || std::isinf(w * w)) return 0.0;
    return Pdf(z) * (w * w - 4 * w + 1) / ((1 + w) * (1 + w));
  }
  static double LimitGrad(Censoring c, bool positive, double sigma) {
    switch (c) {
      case Censoring::kRight:
        return positive ? -1.0 / sigma : 0.0;
      case Censoring::kLeft:
        return positive ? 0.0 : 1.0 / sigma;
      default:
        return positive ? -1.0 / sigma : 1.0 / sigma;
    }
  }
  static double LimitHess(Censoring, bool, double) { return kMinHessian; }
};

struct Extreme {  // the minimum extreme value (Gumbel) distribution
  static double Pdf(double z) {
    const double w = std::exp(z);
    return std::isinf(w) ? 0.0 : w * std::exp(-w);
  }
  static double Cdf(double z) { return 1 - std::exp(-std::exp(z)); }
  static double GradPdf(double z) {
    const double w = std::exp(z);
    return std::isinf(w) ? 0.0 : (1 - w) * Pdf(z);
  }
  static double HessPdf(double z) {
    const double w = std::exp(z);
    if (std::isinf(w) || std::isinf(w * w)) return 0.0;
    return (w * w - 3 * w + 1) * Pdf(z);
  }
  static double LimitGrad(Censoring c, bool positive, double sigma) {
    switch (c) {
      case Censoring::kRight:
        return positive ? kMinGradient : 0.0;
      case Censoring::kLeft:
        return positive ? 0.0 : 1.0 / sigma;
      default:
        return positive ? kMinGradient : 1.0 / sigma;
    }
  }
  static double LimitHess(Censoring c, bool positive, double /*sigma*/) {
    if (c == Censoring::kLeft) return kMinHessian;
    return positive ? kMaxHessian : kMinHessian;
  }
};

// The pdf / cdf terms of one row at the ends of its interval. An open end (upper = +inf, or
// lower <= 0: the time is only known to be below upper) contributes 0 / 1 / 0 as XGBoost does.
template <typename D>
struct Ends {
  Censoring censoring = Censoring::kInterval;
  bool positive = false;  // z_upper > 0 or z_lower > 0 (the side of the limits)
  double pdf_u = 0, cdf_u = 1, grad_u = 0, pdf_l = 0, cdf_l = 0, grad_l = 0;

  Ends(double lower, double upper, double pred, double sigma) {
    double z_u = 0, z_l = 0;
    if (std::isinf(upper)) {
      censoring = Censoring::kRight;
    } else {
      z_u = (std::log(upper) - pred) / sigma;
      pdf_u = D::Pdf(z_u);
      cdf_u = D::Cdf(z_u);
      grad_u = D::GradPdf(z_u);
    }
    if (lower <= 0.0) {
      censoring = Censoring::kLeft;
    } else {
      z_l = (std::log(lower) - pred) / sigma;
      pdf_l = D::Pdf(z_l);
      cdf_l = D::Cdf(z_l);
      grad_l = D::GradPdf(z_l);
    }
    positive = z_u > 0 || z_l > 0;
  }
};

// Negative log-likelihood of [lower, upper] given the margin `pred` (log time); lower ==
// upper is an observed time (density), anything else a censored one (probability mass).
template <typename D>
double Loss(double lower, double upper, double pred, double sigma) {
  if (lower == upper) {
    const double z = (std::log(lower) - pred) / sigma;
    return -std::log(std::fmax(D::Pdf(z) / (sigma * lower), kEps));
  }
  double cdf_u = 1, cdf_l = 0;
  if (!std::isinf(upper)) cdf_u = D::Cdf((std::log(upper) - pred) / sigma);
  if (lower > 0.0) cdf_l = D::Cdf((std::log(lower) - pred) / sigma);
  return -std::log(std::fmax(cdf_u - cdf_l, kEps));
}

template <typename D>
double Gradient(double lower, double upper, double pred, double sigma) {
  double numerator, denominator;
  Censoring censoring = Censoring::kUncensored;
  bool positive;
  if (lower == upper) {
    const double z = (std::log(lower) - pred) / sigma;
    numerator = D::GradPdf(z);
    denominator = sigma * D::Pdf(z);
    positive = z > 0;
  } else {
    const Ends<D> e(lower, upper, pred, sigma);
    censoring = e.censoring;
    positive = e.positive;
    numerator = e.pdf_u - e.pdf_l;
    denominator = sigma * (e.cdf_u - e.cdf_l);
  }
  double gradient = numerator / denominator;
  if (denominator < kEps && (std::isnan(gradient) || std::isinf(gradient))) {
    gradient = D::LimitGrad(censoring, positive, sigma);
  }
  return Clip(gradient, kMinGradient, kMaxGradient);
}

template <typename D>
double Hessian(double lower, double upper, double pred, double sigma) {
  double numerator, denominator;
  Censoring censoring = Censoring::kUncensored;
  bool positive;
  if (lower == upper) {
    const double z = (std::log(lower) - pred) / sigma;
    const double pdf = D::Pdf(z);
    const double grad_pdf = D::GradPdf(z);
    numerator = -(pdf * D::HessPdf(z) - grad_pdf * grad_pdf);
    denominator = sigma * sigma * pdf * pdf;
    positive = z > 0;
  } else {
    const Ends<D> e(lower, upper, pred, sigma);
    censoring = e.censoring;
    positive = e.positive;
    const double cdf_diff = e.cdf_u - e.cdf_l;
    const double pdf_diff = e.pdf_u - e.pdf_l;
    const double sqrt_denominator = sigma * cdf_diff;
    numerator = -(cdf_diff * (e.grad_u - e.grad_l) - pdf_diff * pdf_diff);
    denominator = sqrt_denominator * sqrt_denominator;
  }
  double hessian = numerator / denominator;
  if (denominator < kEps && (std::isnan(hessian) || std::isinf(hessian))) {
    hessian = D::LimitHess(censoring, positive, sigma);
  }
  return Clip(hessian, kMinHessian, kMaxHessian);
}

}  // namespace treering::booster::aft
