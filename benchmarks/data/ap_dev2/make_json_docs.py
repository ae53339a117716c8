import json, os
D = os.path.join(os.path.dirname(os.path.abspath(__file__)), "documents")

po_77342 = {
  "apiVersion": "erp.procurement/v2",
  "kind": "PurchaseOrder",
  "metadata": {"requestId": "req-4f1c9a72", "generatedAt": "2026-04-21T16:02:11Z",
               "tenant": "corvane-prod", "pageInfo": {"page": 1, "pages": 1}},
  "data": {
    "purchaseOrder": {
      "header": {
        "status": "RECEIVED_PARTIAL",
        "poNumber": "PO-77342",
        "revision": 1,
        "orgUnit": {"company": "Corvane Brewing Company", "plant": "TAC1", "purchasingGroup": "PG-PKG"},
        "vendor": {"vendorId": "V-10442", "name": "Halvorsen Glass & Closure Co.",
                   "contractRef": "SC-2093", "contacts": [{"role": "sales", "email": "sales@halvorsen-glass.example"}]},
        "dates": {"orderDate": "2026-04-01", "requestedShip": "2026-04-15", "requiredDelivery": "2026-04-20"},
        "terms": {"payment": {"code": "N45", "netDays": 45}, "incoterm": "FOB Origin"}
      },
      "lines": [
        {"lineId": "7c1e-0010", "status": "PARTIAL", "line_no": 10,
         "item": {"sku": "AMB-330", "desc": "330ml amber longneck bottle", "uom": "BOTTLE"},
         "schedule": [{"deliveryDate": "2026-04-20", "qty": 50000}],
         "pricing": {"unitPrice": 0.162, "currency": "USD", "taxCode": "WA-STD"},
         "extended": 8100.00},
        {"lineId": "7c1e-0020", "status": "OPEN", "line_no": 20,
         "item": {"sku": "CTN-24", "desc": "24-bottle kraft carrier", "uom": "CARTON"},
         "schedule": [{"deliveryDate": "2026-04-20", "qty": 5000}],
         "pricing": {"unitPrice": 0.74, "currency": "USD", "taxCode": "WA-STD"},
         "extended": 3700.00},
        {"lineId": "7c1e-0030", "status": "OPEN", "line_no": 30,
         "item": {"sku": "CRN-26", "desc": "26mm crown, box of 1000", "uom": "BOX"},
         "schedule": [{"deliveryDate": "2026-04-20", "qty": 40}],
         "pricing": {"unitPrice": 14.50, "currency": "USD", "taxCode": "WA-STD"},
         "extended": 580.00}
      ],
      "totals": {"net": 12380.00, "currency": "USD"},
      "changeLog": [
        {"rev": 0, "at": "2026-04-01T09:14:00Z", "line_no": 10, "field": "qty", "old": None, "new": 45000},
        {"rev": 1, "at": "2026-04-02T15:40:00Z", "line_no": 10, "field": "qty", "old": 45000, "new": 50000}
      ]
    }
  }
}

gr_55061 = {
  "source": "WMS-Tacoma",
  "event": "GOODS_RECEIPT_POSTED",
  "eventId": "evt-20260417-0193",
  "payload": {
    "receipt": {
      "ids": {"grn": "GRN-55061", "asn": "HGC-ASN-40217", "packingSlip": "HGC-PS-31260"},
      "po": {"number": "PO-77342", "vendor": {"id": "V-10442", "name": "Halvorsen Glass & Closure Co."}},
      "timing": {"arrived": "2026-04-17T08:25:00-07:00", "posted": "2026-04-17T11:02:37-07:00",
                 "receiptDate": "2026-04-17"},
      "dock": {"door": 3, "clerk": "T. Lindqvist"},
      "items": [
        {"handlingUnits": [{"sscc": "00312345600000188", "qty": 24600}, {"sscc": "00312345600000195", "qty": 24600}],
         "poLine": {"line_no": 10, "sku": "AMB-330"},
         "quantities": {"asn": 49200, "received": 49200, "rejected": 0, "uom": "BOTTLE"}},
        {"handlingUnits": [{"sscc": "00312345600000201", "qty": 2500}, {"sscc": "00312345600000218", "qty": 2450}],
         "poLine": {"line_no": 20, "sku": "CTN-24"},
         "quantities": {"asn": 5000, "received": 4950, "rejected": 0, "uom": "CARTON"},
         "exceptions": [{"code": "SHORT", "qty": 50, "note": "one bundle of 50 missing from pallet 2"}]},
        {"handlingUnits": [{"sscc": "00312345600000225", "qty": 40}],
         "poLine": {"line_no": 30, "sku": "CRN-26"},
         "quantities": {"asn": 40, "received": 40, "rejected": 0, "uom": "BOX"}}
      ]
    }
  }
}

inv_20958 = {
  "status": "ok",
  "ap": {
    "query": {"vendorInvoiceNo": "HG-20958", "capturedVia": "OCR-portal", "capturedAt": "2026-04-22T07:51:09Z"},
    "documents": [
      {"type": "INVOICE",
       "vendorInvoice": {"number": "HG-20958", "date": "2026-04-21", "currency": "USD",
                         "paymentTerms": {"code": "N45", "netDays": 45, "text": "Net 45"}},
       "parties": {"supplier": {"vendorId": "V-10442", "name": "Halvorsen Glass & Closure Co."},
                   "billTo": {"name": "Corvane Brewing Company", "account": "C-3318"}},
       "references": {"po": "PO-77342", "contract": "SC-2093", "shipDate": "2026-04-15"},
       "amounts": {
         "lines": [
           {"seq": 1, "sku": "AMB-330", "line_no": 10,
            "billed": {"qty": 49200, "uom": "BOTTLE", "unitPrice": 0.185, "lineAmount": 9102.00},
            "reference": {"poUnitPrice": 0.162}},
           {"seq": 2, "sku": "CTN-24", "line_no": 20,
            "billed": {"qty": 5000, "uom": "CARTON", "unitPrice": 0.82, "lineAmount": 4100.00},
            "reference": {"poUnitPrice": 0.74}},
           {"seq": 3, "sku": "CRN-26", "line_no": 30,
            "billed": {"qty": 40, "uom": "BOX", "unitPrice": 14.50, "lineAmount": 580.00},
            "reference": {"poUnitPrice": 14.50}}
         ],
         "totals": {"net": 13782.00, "freight": 0.00,
                    "tax": {"jurisdiction": "WA", "rate": 0.085, "amount": 1171.47},
                    "gross": 14953.47}
       },
       "workflow": {"state": "AWAITING_MATCH", "assignedTo": "ap-clerk-2"}}
    ]
  }
}

ledger = {
  "request": {"endpoint": "/ap/v3/vendor-ledger",
              "params": {"vendor_id": "V-10442", "from": "2026-03-01", "to": "2026-05-31"}},
  "result": {
    "vendor": {"vendor_id": "V-10442", "legal_name": "Halvorsen Glass & Closure Co.", "status": "ACTIVE",
               "bank": {"name": "Willamette Valley Bank", "last4": "4471"}},
    "ledger": {
      "periods": [
        {"period": "2026-03", "entries": [
          {"entry_id": "APE-900114", "doc_type": "INV",
           "document": {"refs": {"po": "PO-77310", "vendor_invoice_no": "HG-20931"},
                        "dates": {"invoice": "2026-03-25", "posted": "2026-03-27"},
                        "amounts": {"net": 14154.80, "gross": 15742.96}},
           "status": "OPEN"}]},
        {"period": "2026-04", "entries": [
          {"entry_id": "APE-900187", "doc_type": "INV",
           "document": {"refs": {"po": "PO-77342", "vendor_invoice_no": "HG-20958"},
                        "dates": {"invoice": "2026-04-21", "posted": "2026-04-22"},
                        "amounts": {"net": 13782.00, "gross": 14953.47}},
           "status": "OPEN"},
          {"entry_id": "APE-900231", "doc_type": "INV",
           "document": {"refs": {"po": "PO-77342", "vendor_invoice_no": "HG-20958"},
                        "dates": {"invoice": "2026-04-28", "posted": "2026-04-29"},
                        "amounts": {"net": 13382.00, "gross": 14519.47}},
           "status": "HELD"}]},
        {"period": "2026-05", "entries": [
          {"entry_id": "APE-900302", "doc_type": "INV",
           "document": {"refs": {"po": "PO-77401", "vendor_invoice_no": "HG-20985"},
                        "dates": {"invoice": "2026-05-06", "posted": "2026-05-07"},
                        "amounts": {"net": 2125.71, "gross": 2306.40}},
           "status": "OPEN"}]}
      ]
    }
  }
}

gr_55090 = {
  "response": {
    "code": 0,
    "message": "OK",
    "body": {
      "documents": [
        {"docType": "GR",
         "header": {"number": "GRN-55090", "postingDate": "2026-04-24", "documentDate": "2026-04-24",
                    "partner": {"role": "VENDOR", "id": "V-20817", "display": "Brightwater Label Co."},
                    "reference": {"po": "PO-77388", "deliveryNote": "BWL-DN-2291"},
                    "site": {"plant": "TAC1", "location": "Packaging Hall"}},
         "positions": [
           {"pos": "0001", "material": {"sku": "LBL-IPA-12", "text": "Harbor Haze IPA front label 12oz"},
            "poRef": {"poNumber": "PO-77388", "poLine": "1"},
            "qty": {"ordered": 120000, "delivered": 120000, "uom": "EA"},
            "batches": [{"run": "R-44817", "rolls": 60}]},
           {"pos": "0002", "material": {"sku": "LBL-IPA-NK", "text": "Harbor Haze IPA neck label"},
            "poRef": {"poNumber": "PO-77388", "poLine": "2"},
            "qty": {"ordered": 120000, "delivered": 118000, "uom": "EA"},
            "batches": [{"run": "R-44818", "rolls": 59}]},
           {"pos": "0003", "material": {"sku": "LBL-STT-12", "text": "Dock Street Stout front label"},
            "poRef": {"poNumber": "PO-77388", "poLine": "3"},
            "qty": {"ordered": 30000, "delivered": 30000, "uom": "EA"},
            "batches": [{"run": "R-44820", "rolls": 15}]}
         ],
         "notes": ["PLT-SETUP (PO line 4) is a service line, no goods receipt"]}
      ]
    }
  }
}

for name, obj in [("erp_po_PO-77342.json", po_77342), ("erp_gr_GRN-55061.json", gr_55061),
                  ("erp_invoice_HG-20958.json", inv_20958), ("erp_ap_ledger_V-10442.json", ledger),
                  ("erp_gr_GRN-55090.json", gr_55090)]:
    with open(os.path.join(D, name), "w") as f:
        json.dump(obj, f, indent=2)
