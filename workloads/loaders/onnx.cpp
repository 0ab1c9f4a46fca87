#include "workloads/loaders/onnx.h"

#include <optional>

#include "workloads/loaders/onnx_tensor.h"
#include "workloads/loaders/protobuf_wire.h"

namespace stcsim::workloads {
namespace {

// Field numbers from onnx.proto (ModelProto, GraphProto, NodeProto, AttributeProto,
// ValueInfoProto / TypeProto / TensorShapeProto).
std::string str(const std::string& file, const WireField& f, const char* name) {
  require_wire_type(file, f, 2, name);
  return field_string(f);
}

OnnxAttribute parse_attribute(const ByteReader& payload, OnnxModel& model) {
  const std::string& file = payload.file();
  OnnxAttribute a;
  std::optional<ByteReader> tensor;
  WireReader w(payload);
  while (!w.at_end()) {
    const WireField f = w.next();
    switch (f.number) {
      case 1:
        a.name = str(file, f, "AttributeProto.name");
        break;
      case 2:
        require_wire_type(file, f, 5, "AttributeProto.f");
        a.f = field_float(f);
        break;
      case 3:
        require_wire_type(file, f, 0, "AttributeProto.i");
        a.i = static_cast<std::int64_t>(f.varint);
        break;
      case 4:
        a.s = str(file, f, "AttributeProto.s");
        break;
      case 5:
        require_wire_type(file, f, 2, "AttributeProto.t");
        tensor = f.bytes;
        break;
      case 7:
        append_floats(f, a.floats);
        break;
      case 8:
        append_varints(f, a.ints);
        break;
      case 20:
        require_wire_type(file, f, 0, "AttributeProto.type");
        a.type = static_cast<std::int64_t>(f.varint);
        break;
      default:
        break;  // graphs, strings, sparse tensors: not needed here
    }
  }
  if (tensor) {
    model.tensors.push_back(decode_tensor_proto(*tensor));
    a.has_tensor = true;
  }
  return a;
}

OnnxNode parse_node(const ByteReader& payload, OnnxModel& model) {
  const std::string& file = payload.file();
  OnnxNode n;
  const std::size_t tensors_before = model.tensors.size();
  WireReader w(payload);
  while (!w.at_end()) {
    const WireField f = w.next();
    switch (f.number) {
      case 1:
        n.inputs.push_back(str(file, f, "NodeProto.input"));
        break;
      case 2:
        n.outputs.push_back(str(file, f, "NodeProto.output"));
        break;
      case 3:
        n.name = str(file, f, "NodeProto.name");
        break;
      case 4:
        n.op_type = str(file, f, "NodeProto.op_type");
        break;
      case 5:
        require_wire_type(file, f, 2, "NodeProto.attribute");
        n.attributes.push_back(parse_attribute(f.bytes, model));
        break;
      case 7:
        n.domain = str(file, f, "NodeProto.domain");
        break;
      default:
        break;
    }
  }
  // A tensor attribute's value is a weight only for a Constant node (named by its
  // output); tensors in other nodes' attributes (ConstantOfShape's fill) are dropped.
  if (n.op_type == "Constant" && model.tensors.size() == tensors_before + 1 && !n.outputs.empty()) {
    model.tensors.back().name = n.outputs[0];
  } else {
    model.tensors.resize(tensors_before);
    for (auto& a : n.attributes) a.has_tensor = false;
  }
  return n;
}

// ValueInfoProto{1 name, 2 type: TypeProto{1 tensor_type{2 shape{1 dim{1 value, 2 param}}}}}.
OnnxValueInfo parse_value_info(const ByteReader& payload) {
  const std::string& file = payload.file();
  OnnxValueInfo v;
  const auto inside = [&](const ByteReader& r, std::uint32_t number, auto&& fn) {
    WireReader w(r);
    while (!w.at_end()) {
      const WireField f = w.next();
      if (f.number == number && f.wire_type == 2) fn(f.bytes);
    }
  };
  WireReader w(payload);
  while (!w.at_end()) {
    const WireField f = w.next();
    if (f.number == 1) v.name = str(file, f, "ValueInfoProto.name");
    if (f.number != 2 || f.wire_type != 2) continue;
    inside(f.bytes, 1, [&](const ByteReader& tensor_type) {
      inside(tensor_type, 2, [&](const ByteReader& shape) {
        inside(shape, 1, [&](const ByteReader& dim) {
          std::int64_t value = -1;
          WireReader dw(dim);
          while (!dw.at_end()) {
            const WireField d = dw.next();
            if (d.number == 1 && d.wire_type == 0) value = static_cast<std::int64_t>(d.varint);
          }
          v.dims.push_back(value);
        });
      });
    });
  }
  return v;
}

void parse_graph(const ByteReader& payload, OnnxModel& model) {
  const std::string& file = payload.file();
  WireReader w(payload);
  while (!w.at_end()) {
    const WireField f = w.next();
    switch (f.number) {
      case 1:
        require_wire_type(file, f, 2, "GraphProto.node");
        model.nodes.push_back(parse_node(f.bytes, model));
        break;
      case 5:
        require_wire_type(file, f, 2, "GraphProto.initializer");
        model.tensors.push_back(decode_tensor_proto(f.bytes));
        break;
      case 11:
        require_wire_type(file, f, 2, "GraphProto.input");
        model.inputs.push_back(parse_value_info(f.bytes));
        break;
      case 12:
        require_wire_type(file, f, 2, "GraphProto.output");
        model.outputs.push_back(parse_value_info(f.bytes));
        break;
      default:
        break;
    }
  }
}

}  // namespace

const OnnxAttribute* OnnxNode::attribute(const std::string& name) const {
  for (const auto& a : attributes)
    if (a.name == name) return &a;
  return nullptr;
}

std::int64_t OnnxNode::int_attr(const std::string& name, std::int64_t fallback) const {
  const OnnxAttribute* a = attribute(name);
  return a ? a->i : fallback;
}

std::vector<std::int64_t> OnnxNode::ints_attr(const std::string& name,
                                              std::vector<std::int64_t> fallback) const {
  const OnnxAttribute* a = attribute(name);
  return a ? a->ints : fallback;
}

const Tensor* OnnxModel::tensor(const std::string& name) const {
  const auto it = index_.find(name);
  return it == index_.end() ? nullptr : &tensors[it->second];
}

OnnxModel parse_onnx(const std::vector<std::uint8_t>& bytes, const std::string& file) {
  OnnxModel model;
  bool has_graph = false;
  WireReader w(ByteReader(bytes.data(), bytes.size(), file));
  while (!w.at_end()) {
    const WireField f = w.next();
    switch (f.number) {
      case 1:
        require_wire_type(file, f, 0, "ModelProto.ir_version");
        model.ir_version = static_cast<std::int64_t>(f.varint);
        break;
      case 2:
        model.producer = str(file, f, "ModelProto.producer_name");
        break;
      case 7:
        require_wire_type(file, f, 2, "ModelProto.graph");
        parse_graph(f.bytes, model);
        has_graph = true;
        break;
      default:
        break;
    }
  }
  if (!has_graph)
    throw_at(file, bytes.size(), "expected an ONNX ModelProto with a graph (field 7); none found");
  for (std::size_t i = 0; i < model.tensors.size(); ++i) model.index_[model.tensors[i].name] = i;
  return model;
}

OnnxModel load_onnx(const std::string& path) { return parse_onnx(read_file_bytes(path), path); }

std::vector<Tensor> load_onnx_weights(const std::string& path) { return load_onnx(path).tensors; }

}  // namespace stcsim::workloads
