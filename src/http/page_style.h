// The style serve's pages share (the front page and the payment page): large type for a
// projector, no outside asset.
#pragma once

namespace idemlab {

inline constexpr const char* kPageStyle =
    "body{font-family:\"DejaVu Sans\",Verdana,sans-serif;max-width:760px;margin:24px auto;"
    "font-size:18px;color:#222}form{display:flex;gap:12px;align-items:end;flex-wrap:wrap;"
    "margin:16px 0}label{display:flex;flex-direction:column;font-size:14px}input,select,button{"
    "font-size:20px;padding:6px 10px}button{background:#2e6bd0;color:#fff;border:0;"
    "border-radius:6px;padding:10px 28px}table{border-collapse:collapse}td,th{padding:4px 12px;"
    "text-align:left;border-bottom:1px solid #ddd}.good{background:#d4f5d4}.bad{background:"
    "#f7d4d4}.result{padding:10px 14px;border-radius:6px;font-size:20px}.small{font-size:14px;"
    "color:#555}";

}  // namespace idemlab
