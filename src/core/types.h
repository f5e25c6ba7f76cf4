// Scalar and Eigen aliases used throughout jointdyn. SI units everywhere.
#pragma once

#include <Eigen/Dense>

namespace jointdyn {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;
using Mat2 = Eigen::Matrix2d;
using Mat3 = Eigen::Matrix3d;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;

}  // namespace jointdyn
