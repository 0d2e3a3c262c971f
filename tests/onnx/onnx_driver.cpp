// Runs mf::onnx's operators on cases read from stdin, one per line, for
// onnx_reference_compare.py, which builds the same nodes for onnx's
// reference evaluator. A line is space-separated key=value fields:
//   op=quantize|dequantize|cast  axis=N block=N saturate=0|1 out=T
//   precision=T opset=N round=up|down|nearest  x=TENSOR s=TENSOR [z=TENSOR]
// with T an onnx.TensorProto data type number (0: not given) and TENSOR
// "type:d0,d1,...:hex of the raw data" (no dimensions: a scalar). The
// answer, one line per case: "type:hex" or "error:message".
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <minifloat/onnx.hpp>

namespace {

using mf::onnx::data_type;
using mf::onnx::tensor;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) parts.push_back(part);
  if (!s.empty() && s.back() == sep) parts.emplace_back();
  return parts;
}

tensor parse_tensor(const std::string& text) {
  const std::vector<std::string> f = split(text, ':');
  if (f.size() != 3) throw std::runtime_error("bad tensor field " + text);
  tensor t;
  t.type = static_cast<data_type>(std::stoi(f[0]));
  if (!f[1].empty()) {
    for (const std::string& d : split(f[1], ',')) t.shape.push_back(std::stoll(d));
  }
  for (std::size_t i = 0; i + 1 < f[2].size(); i += 2) {
    t.data.push_back(static_cast<std::uint8_t>(std::stoul(f[2].substr(i, 2), nullptr, 16)));
  }
  return t;
}

std::string run_case(const std::string& line) {
  std::string op;
  mf::onnx::quantize_attributes q;
  mf::onnx::dequantize_attributes d;
  mf::onnx::cast_attributes c;
  data_type out = data_type::undefined;
  tensor x, s, z;
  bool has_z = false;
  std::istringstream in(line);
  std::string field;
  while (in >> field) {
    const std::size_t eq = field.find('=');
    const std::string key = field.substr(0, eq), value = field.substr(eq + 1);
    if (key == "op") op = value;
    else if (key == "axis") q.axis = d.axis = std::stoll(value);
    else if (key == "block") q.block_size = d.block_size = std::stoll(value);
    else if (key == "saturate") q.saturate = c.saturate = value == "1";
    else if (key == "out") out = static_cast<data_type>(std::stoi(value));
    else if (key == "precision") q.precision = static_cast<data_type>(std::stoi(value));
    else if (key == "opset") q.opset = c.opset = std::stoi(value);
    else if (key == "round") c.round_mode = mf::onnx::e8m0_round_mode_from_name(value);
    else if (key == "x") x = parse_tensor(value);
    else if (key == "s") s = parse_tensor(value);
    else if (key == "z") { z = parse_tensor(value); has_z = true; }
  }
  tensor y;
  if (op == "quantize") {
    q.output_dtype = out;
    y = mf::onnx::quantize_linear(x, s, has_z ? &z : nullptr, q);
  } else if (op == "dequantize") {
    d.output_dtype = out;
    y = mf::onnx::dequantize_linear(x, s, has_z ? &z : nullptr, d);
  } else if (op == "cast") {
    y = mf::onnx::cast(x, out, c);
  } else {
    throw std::runtime_error("unknown op " + op);
  }
  std::string answer = std::to_string(static_cast<int>(y.type)) + ":";
  static const char digits[] = "0123456789abcdef";
  for (const std::uint8_t b : y.data) {
    answer += digits[b >> 4];
    answer += digits[b & 15];
  }
  return answer;
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::string line;
  while (std::getline(std::cin, line)) {
    try {
      std::cout << run_case(line) << '\n';
    } catch (const std::exception& e) {
      std::cout << "error:" << e.what() << '\n';
    }
  }
  return 0;
}
