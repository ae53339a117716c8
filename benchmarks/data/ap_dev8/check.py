#!/usr/bin/env python3
"""Hand-entered fact base for ap_dev8 and a recomputation of every claim label.

Each fact is (file, slot, value, evidence[, token]).  For text documents, evidence is a string
(or list of strings) that must appear verbatim in the file, and the value (or the optional token)
must appear inside the evidence.  For JSON documents, evidence is {"path": [...], "anchors":
[(path, value), ...]}: the value must sit at path and every anchor path must hold its value.
"""
import datetime as dt, hashlib, json, os, re, sys

BASE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(BASE, "documents")

C = "contract_FSA-GWS-2026-014.txt"; PO1 = "po_4500018231.txt"; PO2 = "po_4500018307.txt"; PO3 = "po_4500018262.txt"
GR1 = "grn_26-0147.txt"; GR2 = "grn_26-0203.txt"; GR3 = "grn_26-0188.txt"
I1 = "inv_KA-RE-2026-0419.txt"; I1R = "inv_KA-RE-2026-0419_resent.txt"; I2 = "inv_KA-RE-2026-0588.txt"; I3 = "inv_NMS-INV-10277.txt"
POL = "policy_AP-POL-07.txt"; EM = "email_kessler_2026-03-30.txt"
J1 = "erp_po_4500018262.json"; J2 = "erp_gr_5000007802.json"; J3 = "erp_match_status_4500018231.json"
FSA = "FSA-GWS-2026-014"; K1 = "KA-RE-2026-0419"; K2 = "KA-RE-2026-0588"; N1 = "NMS-INV-10277"
P1 = "4500018231"; P2 = "4500018307"; P3 = "4500018262"; G1 = "GRN-26-0147"; G2 = "GRN-26-0203"; G3 = "GRN-26-0188"
KES = "Kessler Armaturen GmbH"; NMS = "Northgate Meter Systems Ltd"; GWS = "Glenmorran Water Services DAC"

def jp(path, *anchors):
    return {"path": path, "anchors": list(anchors)}

J1I = ["data", "purchaseOrders", 0]
J2D = ["response", "document"]
J3P = ["result", "purchaseOrder"]

FACTS = [
    # ---------------- contract
    (C, ("effective", FSA), "2026-02-01", "Effective Date:     1 February 2026"),
    (C, ("term_end", FSA), "2028-01-31", "continues for an initial term of twenty-four (24) months, ending on 31 January 2028"),
    (C, ("notice", FSA), 90, "terminate this Agreement for convenience by giving not less than ninety (90) days' written notice"),
    (C, ("liability", FSA), 250000, "total aggregate liability arising out of or in connection with this Agreement, whether in contract, tort or otherwise, shall not exceed EUR 250,000 (two hundred and fifty thousand euro)"),
    (C, ("liability_ccy", FSA), "EUR", "shall not exceed EUR 250,000"),
    (C, ("party", FSA, "buyer"), GWS, "Buyer:              Glenmorran Water Services DAC"),
    (C, ("party", FSA, "supplier"), KES, "Supplier:           Kessler Armaturen GmbH"),
    (C, ("vendor", FSA), KES, "Supplier:           Kessler Armaturen GmbH"),
    (C, ("tier", FSA, "GV-DN100"), ((1, 24, 412.00), (25, 99, 389.50), (100, None, 371.00)),
        ["Item code   Description                                 1-24 pcs    25-99 pcs   100+ pcs",
         "GV-DN100    Gate valve DN100 PN16, resilient seated       412.00     389.50       371.00"]),
    (C, ("tier", FSA, "GV-DN150"), ((1, 24, 618.00), (25, 99, 587.10), (100, None, 560.00)),
        ["Item code   Description                                 1-24 pcs    25-99 pcs   100+ pcs",
         "GV-DN150    Gate valve DN150 PN16, resilient seated      618.00       587.10     560.00"]),
    (C, ("tier", FSA, "BF-DN300"), ((1, 9, 1945.00), (10, 49, 1862.00), (50, None, 1790.00)),
        ["Item code   Description                              1-9 pcs     10-49 pcs    50+ pcs",
         "BF-DN300    Butterfly valve DN300 wafer PN16         1,945.00    1,862.00     1,790.00"]),
    (C, ("tier", FSA, "HY-UH-80"), ((1, None, 734.00),),
        "Underground fire hydrants, type UH-80 (item code HY-UH-80), are supplied at EUR 734.00 per unit irrespective of the quantity ordered"),
    (C, ("terms_days", FSA), 45, "otherwise the invoice is payable in full 45 calendar days after the invoice date"),
    (C, ("late_rate", FSA), 0.005, "the Supplier shall credit the Buyer 0.5% of the net value of the Goods delivered late (valued at the Purchase Order prices, excluding VAT and freight) for each calendar day", "0.5%"),
    (C, ("late_cap", FSA), 0.08, "The total credit for any one Purchase Order shall not exceed 8% of that net value.", "8%"),
    # ---------------- purchase orders
    (PO1, ("vendor", P1), KES, "Vendor: Kessler Armaturen GmbH"),
    (PO1, ("po_req", P1), "2026-03-02", "Required delivery date: 2 March 2026"),
    (PO1, ("po_qty", P1, "10"), 60, "| 10 | GV-DN100 | Gate valve DN100 PN16, resilient seated | 60 | EA | 389.50 | 23,370.00 |", "| 60 |"),
    (PO1, ("po_price", P1, "10"), 389.50, "| 10 | GV-DN100 | Gate valve DN100 PN16, resilient seated | 60 | EA | 389.50 | 23,370.00 |"),
    (PO1, ("po_qty", P1, "20"), 30, "| 20 | GV-DN150 | Gate valve DN150 PN16, resilient seated | 30 | EA | 587.10 | 17,613.00 |", "| 30 |"),
    (PO1, ("po_price", P1, "20"), 587.10, "| 20 | GV-DN150 | Gate valve DN150 PN16, resilient seated | 30 | EA | 587.10 | 17,613.00 |"),
    (PO1, ("po_qty", P1, "30"), 12, "| 30 | HY-UH-80 | Underground fire hydrant UH-80 | 12 | EA | 734.00 | 8,808.00 |", "| 12 |"),
    (PO1, ("po_price", P1, "30"), 734.00, "| 30 | HY-UH-80 | Underground fire hydrant UH-80 | 12 | EA | 734.00 | 8,808.00 |"),
    (PO1, ("po_net", P1), 49791.00, "Net order value (EUR): 49,791.00"),
    (PO2, ("vendor", P2), KES, "Supplier ........ Kessler Armaturen GmbH, Falkenried DE   (V-10388)", KES),
    (PO2, ("po_req", P2), "2026-03-20", "Req. delivery ... 20.03.2026"),
    (PO2, ("po_qty", P2, "10"), 16, "10   BF-DN300   Butterfly valve DN300 wafer PN16        16  EA        1,862.00      29,792.00", " 16  EA"),
    (PO2, ("po_price", P2, "10"), 1862.00, "10   BF-DN300   Butterfly valve DN300 wafer PN16        16  EA        1,862.00      29,792.00"),
    (PO2, ("po_qty", P2, "20"), 20, "20    GV-DN100  Gate valve DN100 PN16 res. seated      20    EA        412.00        8,240.00", " 20    EA"),
    (PO2, ("po_price", P2, "20"), 412.00, "20    GV-DN100  Gate valve DN100 PN16 res. seated      20    EA        412.00        8,240.00"),
    (PO2, ("po_net", P2), 38032.00, "NET ORDER VALUE EUR               38,032.00"),
    (PO3, ("vendor", P3), NMS, "Vendor: Northgate Meter Systems Ltd"),
    (PO3, ("po_req", P3), "2026-03-13", "Required delivery date: 13 March 2026"),
    (PO3, ("po_qty", P3, "10"), 400, '10,NMS-U15-LR,"Ultrasonic water meter DN15, LoRaWAN",400,EA,86.40,34560.00', ",400,"),
    (PO3, ("po_price", P3, "10"), 86.40, '10,NMS-U15-LR,"Ultrasonic water meter DN15, LoRaWAN",400,EA,86.40,34560.00'),
    (PO3, ("po_qty", P3, "20"), 120, '20,NMS-U20-LR,"Ultrasonic water meter DN20, LoRaWAN",120,EA,97.25,11670.00', ",120,"),
    (PO3, ("po_price", P3, "20"), 97.25, '20,NMS-U20-LR,"Ultrasonic water meter DN20, LoRaWAN",120,EA,97.25,11670.00'),
    (PO3, ("po_qty", P3, "30"), 3, '30,NMS-GW-8,"LoRaWAN gateway, 8-channel, outdoor",3,EA,1480.00,4440.00', ",3,"),
    (PO3, ("po_price", P3, "30"), 1480.00, '30,NMS-GW-8,"LoRaWAN gateway, 8-channel, outdoor",3,EA,1480.00,4440.00'),
    (PO3, ("po_net", P3), 50670.00, "Net order value: EUR 50,670.00"),
    (PO3, ("po_gross", P3), 62324.10, "Order total: EUR 62,324.10"),
    (J1, ("vendor", P3), NMS, jp(J1I + ["header", "partners", 0, "name"], (J1I + ["header", "partners", 0, "role"], "VN"), (J1I + ["header", "poNumber"], P3))),
    (J1, ("po_qty", P3, "10"), 400, jp(J1I + ["items", 0, "scheduleLines", 0, "quantity", "ordered"], (J1I + ["items", 0, "itemNo"], "10"), (J1I + ["header", "poNumber"], P3))),
    (J1, ("po_qty", P3, "20"), 120, jp(J1I + ["items", 1, "scheduleLines", 0, "quantity", "ordered"], (J1I + ["items", 1, "itemNo"], "20"), (J1I + ["header", "poNumber"], P3))),
    (J1, ("po_qty", P3, "30"), 3, jp(J1I + ["items", 2, "scheduleLines", 0, "quantity", "ordered"], (J1I + ["items", 2, "itemNo"], "30"), (J1I + ["header", "poNumber"], P3))),
    (J1, ("po_price", P3, "20"), 97.25, jp(J1I + ["items", 1, "pricing", "netPrice", "amount"], (J1I + ["items", 1, "itemNo"], "20"))),
    (J1, ("po_req", P3), "2026-03-13", jp(J1I + ["items", 0, "scheduleLines", 0, "deliveryDate"], (J1I + ["header", "poNumber"], P3))),
    (J3, ("vendor", P1), KES, jp(J3P + ["vendor", "name"], (J3P + ["number"], P1))),
    (J3, ("po_qty", P1, "10"), 60, jp(J3P + ["items", 0, "quantities", "ordered", "value"], (J3P + ["items", 0, "item"], "10"), (J3P + ["number"], P1))),
    (J3, ("po_qty", P1, "20"), 30, jp(J3P + ["items", 1, "quantities", "ordered", "value"], (J3P + ["items", 1, "item"], "20"), (J3P + ["number"], P1))),
    (J3, ("po_qty", P1, "30"), 12, jp(J3P + ["items", 2, "quantities", "ordered", "value"], (J3P + ["items", 2, "item"], "30"), (J3P + ["number"], P1))),
    # ---------------- goods receipts
    (GR1, ("vendor", G1), KES, "Supplier:\tKessler Armaturen GmbH"),
    (GR1, ("gr_date", G1), "2026-02-27", "Date received:\t27.02.2026"),
    (GR1, ("gr_po", G1), P1, "Purchase order:\t4500018231"),
    (GR1, ("gr_qty", G1, "10"), 60, "10\tGV-DN100\tGate valve DN100 PN16\t60\t60\t0\tOK", "\t60\t0\t"),
    (GR1, ("gr_qty", G1, "20"), 28, "20\tGV-DN150\tGate valve DN150 PN16\t30\t28\t2\tOK - 2 on backorder per LS-88123", "\t28\t2\t"),
    (GR1, ("gr_qty", G1, "30"), 12, "30\tHY-UH-80\tUnderground hydrant UH-80\t12\t12\t0\tOK", "\t12\t0\t"),
    (GR2, ("vendor", G2), KES, "Vendor: Kessler Armaturen GmbH"),
    (GR2, ("gr_date", G2), "2026-03-26", "Received on: 26.03.2026  14:40"),
    (GR2, ("gr_po", G2), P2, "PO number: 4500018307"),
    (GR2, ("gr_qty", G2, "10"), 16, "10   BF-DN300    Butterfly valve DN300 wafer PN16            16      EA"),
    (GR2, ("gr_qty", G2, "20"), 20, "20    GV-DN100   Gate valve DN100 PN16 res. seated          20       EA", " 20       EA"),
    (J2, ("vendor", G2), KES, jp(J2D + ["references", "vendor", "name"], (J2D + ["references", "grn"], G2))),
    (J2, ("gr_date", G2), "2026-03-26", jp(J2D + ["header", "postingDate"], (J2D + ["references", "grn"], G2))),
    (J2, ("gr_po", G2), P2, jp(J2D + ["references", "purchaseOrder"], (J2D + ["references", "grn"], G2))),
    (J2, ("gr_qty", G2, "10"), 16, jp(J2D + ["items", 0, "quantity", "entry", "value"], (J2D + ["items", 0, "poItem"], "00010"), (J2D + ["references", "grn"], G2))),
    (J2, ("gr_qty", G2, "20"), 20, jp(J2D + ["items", 1, "quantity", "entry", "value"], (J2D + ["items", 1, "poItem"], "00020"), (J2D + ["references", "grn"], G2))),
    (GR3, ("vendor", G3), NMS, "Supplier: Northgate Meter Systems Ltd | PO: 4500018262", NMS),
    (GR3, ("gr_date", G3), "2026-03-12", "Report: GRN-26-0188 | Depot: Meter Depot, Clonroe Industrial Estate | Date: 12 March 2026"),
    (GR3, ("gr_po", G3), P3, "Supplier: Northgate Meter Systems Ltd | PO: 4500018262"),
    (GR3, ("gr_qty", G3, "NMS-U15-LR"), 400, "| NMS-U15-LR | Ultrasonic water meter DN15, LoRaWAN      | 400          |"),
    (GR3, ("gr_qty", G3, "NMS-U20-LR"), 126, "| NMS-U20-LR | Ultrasonic water meter DN20, LoRaWAN      | 126          |"),
    (GR3, ("gr_qty", G3, "NMS-GW-8"), 3, "| NMS-GW-8   | LoRaWAN gateway, 8-channel, outdoor       | 3            |", "| 3 "),
    (J3, ("gr_qty", G1, "10"), 60, jp(J3P + ["items", 0, "quantities", "received", "documents", 0, "qty"], (J3P + ["items", 0, "item"], "10"), (J3P + ["items", 0, "quantities", "received", "documents", 0, "grn"], G1))),
    (J3, ("gr_qty", G1, "20"), 28, jp(J3P + ["items", 1, "quantities", "received", "documents", 0, "qty"], (J3P + ["items", 1, "item"], "20"), (J3P + ["items", 1, "quantities", "received", "documents", 0, "grn"], G1))),
    (J3, ("gr_qty", G1, "30"), 12, jp(J3P + ["items", 2, "quantities", "received", "documents", 0, "qty"], (J3P + ["items", 2, "item"], "30"), (J3P + ["items", 2, "quantities", "received", "documents", 0, "grn"], G1))),
    # ---------------- invoices
    (I1, ("inv_no",), K1, "Rechnungs-Nr. / Invoice no.:    KA-RE-2026-0419"),
    (I1, ("vendor", K1), KES, "Kessler Armaturen GmbH - Industriestrasse 18 - 86399 Falkenried - Deutschland"),
    (I1, ("inv_date", K1), "2026-03-03", "Rechnungsdatum / Invoice date:  03.03.2026"),
    (I1, ("inv_terms_days", K1), 45, "Zahlungsbedingungen / Payment terms: 2/10 net 45 (2 % Skonto innerhalb 10 Tagen, 45 Tage netto /", "net 45"),
    (I1, ("inv_item", K1, "10"), "GV-DN100", "10    GV-DN100    Absperrschieber / Gate valve DN100 PN16              60  Stk             389,50     23.370,00"),
    (I1, ("inv_qty", K1, "10"), 60, "10    GV-DN100    Absperrschieber / Gate valve DN100 PN16              60  Stk             389,50     23.370,00", " 60  Stk"),
    (I1, ("inv_price", K1, "10"), 389.50, "10    GV-DN100    Absperrschieber / Gate valve DN100 PN16              60  Stk             389,50     23.370,00"),
    (I1, ("inv_amount", K1, "10"), 23370.00, "10    GV-DN100    Absperrschieber / Gate valve DN100 PN16              60  Stk             389,50     23.370,00"),
    (I1, ("inv_item", K1, "20"), "GV-DN150", "20    GV-DN150    Absperrschieber / Gate valve DN150 PN16              30  Stk             587,10     17.613,00"),
    (I1, ("inv_qty", K1, "20"), 30, "20    GV-DN150    Absperrschieber / Gate valve DN150 PN16              30  Stk             587,10     17.613,00", " 30  Stk"),
    (I1, ("inv_price", K1, "20"), 587.10, "20    GV-DN150    Absperrschieber / Gate valve DN150 PN16              30  Stk             587,10     17.613,00"),
    (I1, ("inv_amount", K1, "20"), 17613.00, "20    GV-DN150    Absperrschieber / Gate valve DN150 PN16              30  Stk             587,10     17.613,00"),
    (I1, ("inv_item", K1, "30"), "HY-UH-80", "30    HY-UH-80    Unterflurhydrant / Underground hydrant UH-80         12  Stk             734,00      8.808,00"),
    (I1, ("inv_qty", K1, "30"), 12, "30    HY-UH-80    Unterflurhydrant / Underground hydrant UH-80         12  Stk             734,00      8.808,00", " 12  Stk"),
    (I1, ("inv_price", K1, "30"), 734.00, "30    HY-UH-80    Unterflurhydrant / Underground hydrant UH-80         12  Stk             734,00      8.808,00"),
    (I1, ("inv_amount", K1, "30"), 8808.00, "30    HY-UH-80    Unterflurhydrant / Underground hydrant UH-80         12  Stk             734,00      8.808,00"),
    (I1, ("inv_subtotal", K1), 49791.00, "Nettowert / Net value                                                                               49.791,00"),
    (I1, ("inv_total", K1), 49791.00, "Rechnungsbetrag / Invoice total                                                               EUR  49.791,00"),
    (I1R, ("inv_no",), K1, "Rechnungs-Nr. / Invoice no.: KA-RE-2026-0419"),
    (I1R, ("vendor", K1), KES, "Lieferant / Supplier: Kessler Armaturen GmbH"),
    (I1R, ("inv_date", K1), "2026-03-03", "Rechnungsdatum / Invoice date: 03.03.2026"),
    (I1R, ("inv_terms_days", K1), 45, "Zahlungsbedingungen / Payment terms: 2/10 net 45 (2% discount within 10 days, net 45 days from invoice date)"),
    (I1R, ("inv_item", K1, "10"), "GV-DN100", "10;GV-DN100;60;Stk;389,50;23.370,00"),
    (I1R, ("inv_qty", K1, "10"), 60, "10;GV-DN100;60;Stk;389,50;23.370,00", ";60;"),
    (I1R, ("inv_price", K1, "10"), 389.50, "10;GV-DN100;60;Stk;389,50;23.370,00"),
    (I1R, ("inv_amount", K1, "10"), 23370.00, "10;GV-DN100;60;Stk;389,50;23.370,00"),
    (I1R, ("inv_item", K1, "20"), "GV-DN150", "20;GV-DN150;30;Stk;587,10;17.613,00"),
    (I1R, ("inv_qty", K1, "20"), 30, "20;GV-DN150;30;Stk;587,10;17.613,00", ";30;"),
    (I1R, ("inv_price", K1, "20"), 587.10, "20;GV-DN150;30;Stk;587,10;17.613,00"),
    (I1R, ("inv_amount", K1, "20"), 17613.00, "20;GV-DN150;30;Stk;587,10;17.613,00"),
    (I1R, ("inv_item", K1, "30"), "HY-UH-80", "30;HY-UH-80;12;Stk;734,00;8.808,00"),
    (I1R, ("inv_qty", K1, "30"), 12, "30;HY-UH-80;12;Stk;734,00;8.808,00", ";12;"),
    (I1R, ("inv_price", K1, "30"), 734.00, "30;HY-UH-80;12;Stk;734,00;8.808,00"),
    (I1R, ("inv_amount", K1, "30"), 8808.00, "30;HY-UH-80;12;Stk;734,00;8.808,00"),
    (I1R, ("inv_subtotal", K1), 49791.00, "Nettowert / Net value:                 49.791,00"),
    (I1R, ("inv_total", K1), 49791.00, "Rechnungsbetrag / Invoice total:   EUR 49.791,00"),
    (I2, ("inv_no",), K2, "Rechnungs-Nr. / Invoice no. ........ KA-RE-2026-0588"),
    (I2, ("vendor", K2), KES, "Kessler Armaturen GmbH - Industriestrasse 18 - 86399 Falkenried - Deutschland - USt-IdNr. DE 287 514 093"),
    (I2, ("inv_date", K2), "2026-03-27", "Rechnungsdatum / Invoice date ...... 27.03.2026"),
    (I2, ("inv_terms_ref", K2), FSA, "Payment terms: as per framework agreement FSA-GWS-2026-014"),
    (I2, ("inv_item", K2, "10"), "BF-DN300", "10    BF-DN300   Absperrklappe / Butterfly valve DN300 PN16          16    Stk         1.945,00      31.120,00"),
    (I2, ("inv_qty", K2, "10"), 16, "10    BF-DN300   Absperrklappe / Butterfly valve DN300 PN16          16    Stk         1.945,00      31.120,00", " 16    Stk"),
    (I2, ("inv_price", K2, "10"), 1945.00, "10    BF-DN300   Absperrklappe / Butterfly valve DN300 PN16          16    Stk         1.945,00      31.120,00"),
    (I2, ("inv_amount", K2, "10"), 31120.00, "10    BF-DN300   Absperrklappe / Butterfly valve DN300 PN16          16    Stk         1.945,00      31.120,00"),
    (I2, ("inv_item", K2, "20"), "GV-DN100", "20     GV-DN100  Absperrschieber / Gate valve DN100 PN16            20     Stk           412,00       8.240,00"),
    (I2, ("inv_qty", K2, "20"), 20, "20     GV-DN100  Absperrschieber / Gate valve DN100 PN16            20     Stk           412,00       8.240,00", " 20     Stk"),
    (I2, ("inv_price", K2, "20"), 412.00, "20     GV-DN100  Absperrschieber / Gate valve DN100 PN16            20     Stk           412,00       8.240,00"),
    (I2, ("inv_amount", K2, "20"), 8240.00, "20     GV-DN100  Absperrschieber / Gate valve DN100 PN16            20     Stk           412,00       8.240,00"),
    (I2, ("inv_subtotal", K2), 39360.00, "Nettowert / Net value          39.360,00"),
    (I2, ("inv_total", K2), 39360.00, "Zahlbetrag / Amount payable   EUR 39.360,00"),
    (I3, ("inv_no",), N1, "Invoice number:   NMS-INV-10277"),
    (I3, ("vendor", N1), NMS, "TAX INVOICE NMS-INV-10277\nNorthgate Meter Systems Ltd\n", NMS),
    (I3, ("inv_date", N1), "2026-03-16", "Invoice date:     16 March 2026"),
    (I3, ("inv_terms_days", N1), 30, "Terms:            Net 30"),
    (I3, ("inv_item", N1, "NMS-U15-LR"), "NMS-U15-LR", "NMS-U15-LR    Ultrasonic water meter DN15, LoRaWAN       400              86.40       34,560.00"),
    (I3, ("inv_qty", N1, "NMS-U15-LR"), 400, "NMS-U15-LR    Ultrasonic water meter DN15, LoRaWAN       400              86.40       34,560.00"),
    (I3, ("inv_price", N1, "NMS-U15-LR"), 86.40, "NMS-U15-LR    Ultrasonic water meter DN15, LoRaWAN       400              86.40       34,560.00"),
    (I3, ("inv_amount", N1, "NMS-U15-LR"), 34560.00, "NMS-U15-LR    Ultrasonic water meter DN15, LoRaWAN       400              86.40       34,560.00"),
    (I3, ("inv_item", N1, "NMS-U20-LR"), "NMS-U20-LR", "NMS-U20-LR    Ultrasonic water meter DN20, LoRaWAN        120             97.25       11,670.00"),
    (I3, ("inv_qty", N1, "NMS-U20-LR"), 120, "NMS-U20-LR    Ultrasonic water meter DN20, LoRaWAN        120             97.25       11,670.00"),
    (I3, ("inv_price", N1, "NMS-U20-LR"), 97.25, "NMS-U20-LR    Ultrasonic water meter DN20, LoRaWAN        120             97.25       11,670.00"),
    (I3, ("inv_amount", N1, "NMS-U20-LR"), 11670.00, "NMS-U20-LR    Ultrasonic water meter DN20, LoRaWAN        120             97.25       11,670.00"),
    (I3, ("inv_item", N1, "NMS-GW-8"), "NMS-GW-8", "NMS-GW-8      LoRaWAN gateway, 8-channel, outdoor          3           1,480.00        4,440.00"),
    (I3, ("inv_qty", N1, "NMS-GW-8"), 3, "NMS-GW-8      LoRaWAN gateway, 8-channel, outdoor          3           1,480.00        4,440.00", " 3 "),
    (I3, ("inv_price", N1, "NMS-GW-8"), 1480.00, "NMS-GW-8      LoRaWAN gateway, 8-channel, outdoor          3           1,480.00        4,440.00"),
    (I3, ("inv_amount", N1, "NMS-GW-8"), 4440.00, "NMS-GW-8      LoRaWAN gateway, 8-channel, outdoor          3           1,480.00        4,440.00"),
    (I3, ("inv_subtotal", N1), 50670.00, "Goods total                  50,670.00"),
    (I3, ("inv_discount", N1), 1520.10, "Trade discount 3%            (1,520.10)"),
    (I3, ("inv_freight", N1), 385.00, "Freight & insurance             385.00"),
    (I3, ("inv_net", N1), 49534.90, "Net value                    49,534.90"),
    (I3, ("inv_vat", N1), 11393.03, "VAT @ 23%                    11,393.03"),
    (I3, ("inv_total", N1), 60927.93, "Balance due (EUR)            60,927.93"),
    # ---------------- policy
    (POL, ("threshold",), 40000.00, "and other charges, after any discount printed on the invoice) is greater than EUR 40,000.00 requires the"),
]

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

def num_renders(v):
    out = {f"{v:,.2f}", f"{v:.2f}", f"{v:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")}
    if float(v).is_integer():
        out |= {str(int(v)), f"{int(v):,}"}
    return out

def date_renders(s):
    d = dt.date.fromisoformat(s)
    return {s, d.strftime("%d.%m.%Y"), f"{d.day} {MONTHS[d.month-1]} {d.year}"}

def renders(v):
    if isinstance(v, bool): return {str(v)}
    if isinstance(v, (int, float)): return num_renders(v)
    if isinstance(v, str) and re.fullmatch(r"\d{4}-\d\d-\d\d", v): return date_renders(v)
    return {v}

def jget(obj, path):
    for k in path: obj = obj[k]
    return obj

def eq(a, b):
    if isinstance(a, bool) or isinstance(b, bool): return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)): return abs(a - b) < 0.005
    return a == b

errors = []
def err(msg): errors.append(msg)

# ---------- load documents, verify facts
texts, jsons = {}, {}
for fn in sorted(os.listdir(DOCS)):
    p = os.path.join(DOCS, fn)
    if fn.endswith(".json"): jsons[fn] = json.load(open(p, encoding="utf-8"))
    elif fn.endswith(".txt"): texts[fn] = open(p, encoding="utf-8").read()
    else: err(f"unexpected file {fn}")
ALL_DOCS = set(texts) | set(jsons)

for f in FACTS:
    fn, slot, val, ev = f[:4]; tok = f[4] if len(f) > 4 else None
    if fn in jsons:
        try:
            got = jget(jsons[fn], ev["path"])
            if not eq(got, val): err(f"JSON fact {fn} {slot}: {got!r} != {val!r}")
            for ap, av in ev["anchors"]:
                if jget(jsons[fn], ap) != av: err(f"JSON anchor {fn} {ap} != {av!r}")
        except (KeyError, IndexError, TypeError) as e:
            err(f"JSON path missing {fn} {slot}: {e}")
    elif fn in texts:
        evs = ev if isinstance(ev, list) else [ev]
        for e in evs:
            if e not in texts[fn]: err(f"evidence not verbatim in {fn} for {slot}: {e!r}")
        joined = "\n".join(evs)
        if tok is not None:
            if tok not in joined: err(f"token {tok!r} not in evidence for {slot}")
        elif slot[0] == "tier":
            for lo, hi, pr in val:
                if not any(r in joined for r in num_renders(pr)): err(f"tier price {pr} not in evidence {slot}")
                lab = f"{lo}-{hi}" if hi else (f"{lo}+" if lo > 1 else "")
                if lab and lab not in joined: err(f"tier label {lab} not in evidence {slot}")
        elif not any(r in joined for r in renders(val)):
            err(f"value {val!r} not rendered in evidence for {fn} {slot}")
    else:
        err(f"fact cites missing document {fn}")

# ---------- internal arithmetic consistency of the documents
def facts_of(fn, kind): return {f[1]: f[2] for f in FACTS if f[0] == fn and f[1][0] == kind}
for fn in ALL_DOCS:
    q = facts_of(fn, "inv_qty"); pr = facts_of(fn, "inv_price"); am = facts_of(fn, "inv_amount")
    for s, v in q.items():
        key = s[1:]
        if not eq(round(v * pr[("inv_price",) + key], 2), am[("inv_amount",) + key]): err(f"line amount inconsistent {fn} {key}")
    sub = facts_of(fn, "inv_subtotal")
    for s, v in sub.items():
        if not eq(sum(a for k, a in am.items() if k[1] == s[1]), v): err(f"subtotal inconsistent {fn}")
    pq = facts_of(fn, "po_qty"); pp = facts_of(fn, "po_price"); pn = facts_of(fn, "po_net")
    for s, v in pn.items():
        tot = sum(round(pq[k] * pp[("po_price",) + k[1:]], 2) for k in pq if k[1] == s[1])
        if not eq(tot, v): err(f"PO net inconsistent {fn}")
# Northgate invoice chain
N = {f[1][0]: f[2] for f in FACTS if f[0] == I3}
if not eq(round(N["inv_subtotal"] * 0.03, 2), N["inv_discount"]): err("NMS discount")
if not eq(N["inv_subtotal"] - N["inv_discount"] + N["inv_freight"], N["inv_net"]): err("NMS net")
if not eq(round(N["inv_net"] * 0.23, 2), N["inv_vat"]): err("NMS VAT")
if not eq(N["inv_net"] + N["inv_vat"], N["inv_total"]): err("NMS total")
for fn in (I1, I1R, I2):
    d = {f[1][0]: f[2] for f in FACTS if f[0] == fn}
    if not eq(d["inv_subtotal"], d["inv_total"]): err(f"{fn}: VAT 0 so total must equal net")

# ---------- evaluation of propositions
def vals(cites, slot):
    out = [f[2] for f in FACTS if f[0] in cites and f[1] == slot]
    for v in out[1:]:
        if not eq(v, out[0]) and v != out[0]: raise AssertionError(f"inconsistent facts for {slot}")
    return out[0] if out else None

def verdict(truth, claimed):
    if truth is None: return "unsupported"
    return "supported" if eq(truth, claimed) else "contradicted"

def tier_price(tiers, q):
    for lo, hi, pr in tiers:
        if q >= lo and (hi is None or q <= hi): return pr
    return None

def days_late(a, cites):
    req = vals(cites, ("po_req", a["po_id"])); rd = vals(cites, ("gr_date", a["receipt_id"]))
    gp = vals(cites, ("gr_po", a["receipt_id"]))
    if req is None or rd is None: return None
    if gp is not None and gp != a["po_id"]: return None
    return max(0, (dt.date.fromisoformat(rd) - dt.date.fromisoformat(req)).days)

def evaluate(pred, a, cites):
    if pred == "ordered_quantity": return verdict(vals(cites, ("po_qty", a["po_id"], a["line"])), a["quantity"])
    if pred == "received_quantity": return verdict(vals(cites, ("gr_qty", a["receipt_id"], a["line"])), a["quantity"])
    if pred == "billed_quantity": return verdict(vals(cites, ("inv_qty", a["invoice_id"], a["line"])), a["quantity"])
    if pred == "billed_unit_price": return verdict(vals(cites, ("inv_price", a["invoice_id"], a["line"])), a["unit_price"])
    if pred == "billed_line_amount": return verdict(vals(cites, ("inv_amount", a["invoice_id"], a["line"])), a["amount"])
    if pred == "computed_line_amount":
        q = vals(cites, ("inv_qty", a["invoice_id"], a["line"])); p = vals(cites, ("inv_price", a["invoice_id"], a["line"]))
        return verdict(None if q is None or p is None else round(q * p, 2), a["amount"])
    if pred == "invoice_subtotal": return verdict(vals(cites, ("inv_subtotal", a["invoice_id"])), a["amount"])
    if pred == "invoice_total": return verdict(vals(cites, ("inv_total", a["invoice_id"])), a["amount"])
    if pred == "contract_unit_price":
        t = vals(cites, ("tier", a["contract_id"], a["item"]))
        if t is None: return "unsupported"
        if a.get("quantity") is not None: return verdict(tier_price(t, a["quantity"]), a["unit_price"])
        return "supported" if any(eq(p, a["unit_price"]) for _, _, p in t) else "contradicted"
    if pred == "unit_price_variance":
        p = vals(cites, ("inv_price", a["invoice_id"], a["line"])); q = vals(cites, ("inv_qty", a["invoice_id"], a["line"]))
        it = vals(cites, ("inv_item", a["invoice_id"], a["line"])); t = vals(cites, ("tier", a["contract_id"], a["item"]))
        if None in (p, q, t): return "unsupported"
        assert it in (None, a["item"]), "item mismatch in unit_price_variance"
        return verdict(round(p - tier_price(t, q), 2), a["amount"])
    if pred == "quantity_variance":
        b = vals(cites, ("inv_qty", a["invoice_id"], a["line"])); r = vals(cites, ("gr_qty", a["receipt_id"], a["line"]))
        return verdict(None if b is None or r is None else b - r, a["quantity"])
    if pred == "payment_due_date":
        d = vals(cites, ("inv_date", a["invoice_id"])); n = vals(cites, ("inv_terms_days", a["invoice_id"]))
        if n is None:
            ref = vals(cites, ("inv_terms_ref", a["invoice_id"]))
            n = vals(cites, ("terms_days", ref)) if ref else None
        if d is None or n is None: return "unsupported"
        return verdict((dt.date.fromisoformat(d) + dt.timedelta(days=n)).isoformat(), a["date"])
    if pred == "days_late": return verdict(days_late(a, cites), a["days"])
    if pred == "late_delivery_credit":
        dl = days_late(a, cites); rate = vals(cites, ("late_rate", a["contract_id"])); cap = vals(cites, ("late_cap", a["contract_id"]))
        if None in (dl, rate, cap): return "unsupported"
        lines = {f[1][2]: f[2] for f in FACTS if f[0] in cites and f[1][:2] == ("gr_qty", a["receipt_id"])}
        if not lines: return "unsupported"
        net = 0.0
        for ln, q in lines.items():
            pr = vals(cites, ("po_price", a["po_id"], ln))
            if pr is None: return "unsupported"
            net += q * pr
        return verdict(round(min(dl * rate, cap) * net + 1e-9, 2), a["amount"])
    if pred == "requires_approval":
        t = vals(cites, ("inv_total", a["invoice_id"])); th = vals(cites, ("threshold",))
        return verdict(None if t is None or th is None else t > th, a["value"])
    if pred == "duplicate_invoice_number":
        invs = [(f[0], f[2]) for f in FACTS if f[0] in cites and f[1] == ("inv_no",)]
        vend = {fn: [x[2] for x in FACTS if x[0] == fn and x[1] == ("vendor", no)][0] for fn, no in invs}
        same = [fn for fn, no in invs if no == a["invoice_id"]]
        if not same: return "unsupported"
        v = vend[same[0]]
        same = [fn for fn in same if vend[fn] == v]
        if len(same) >= 2: truth = True
        elif any(no != a["invoice_id"] and vend[fn] == v for fn, no in invs): truth = False
        else: truth = None
        return verdict(truth, a["value"])
    if pred == "vendor_name": return verdict(vals(cites, ("vendor", a["document_id"])), a["vendor"])
    if pred == "liability_cap":
        r = verdict(vals(cites, ("liability", a["contract_id"])), a["amount"])
        if r == "supported" and a.get("currency") is not None:
            r = verdict(vals(cites, ("liability_ccy", a["contract_id"])), a["currency"])
        return r
    if pred == "notice_period_days": return verdict(vals(cites, ("notice", a["contract_id"])), a["days"])
    if pred == "term_end_date": return verdict(vals(cites, ("term_end", a["contract_id"])), a["date"])
    if pred == "effective_date": return verdict(vals(cites, ("effective", a["contract_id"])), a["date"])
    if pred == "contract_party":
        role = {"customer": "buyer", "vendor": "supplier"}.get(a["role"], a["role"])
        return verdict(vals(cites, ("party", a["contract_id"], role)), a["name"])
    raise AssertionError(f"no evaluator for {pred}")

S_, N_, B_, D_, O_ = "s", "n", "b", "d", "?"
ARGSPEC = {
    "ordered_quantity": {"po_id": "s", "line": "s", "quantity": "n"},
    "received_quantity": {"receipt_id": "s", "line": "s", "quantity": "n"},
    "billed_quantity": {"invoice_id": "s", "line": "s", "quantity": "n"},
    "billed_unit_price": {"invoice_id": "s", "line": "s", "unit_price": "n"},
    "billed_line_amount": {"invoice_id": "s", "line": "s", "amount": "n"},
    "computed_line_amount": {"invoice_id": "s", "line": "s", "amount": "n"},
    "invoice_subtotal": {"invoice_id": "s", "amount": "n"},
    "invoice_total": {"invoice_id": "s", "amount": "n"},
    "contract_unit_price": {"contract_id": "s", "item": "s", "unit_price": "n", "quantity": "n?"},
    "unit_price_variance": {"invoice_id": "s", "line": "s", "contract_id": "s", "item": "s", "amount": "n"},
    "quantity_variance": {"invoice_id": "s", "receipt_id": "s", "line": "s", "quantity": "n"},
    "payment_due_date": {"invoice_id": "s", "date": "d"},
    "days_late": {"po_id": "s", "receipt_id": "s", "days": "n"},
    "late_delivery_credit": {"po_id": "s", "receipt_id": "s", "contract_id": "s", "amount": "n"},
    "requires_approval": {"invoice_id": "s", "value": "b"},
    "duplicate_invoice_number": {"invoice_id": "s", "value": "b"},
    "vendor_name": {"document_id": "s", "vendor": "s"},
    "statement": {"text": "s"},
    "liability_cap": {"contract_id": "s", "amount": "n", "currency": "s?"},
    "notice_period_days": {"contract_id": "s", "days": "n"},
    "term_end_date": {"contract_id": "s", "date": "d"},
    "effective_date": {"contract_id": "s", "date": "d"},
    "contract_party": {"contract_id": "s", "role": "s", "name": "s"},
}

def check_type(v, t):
    opt = t.endswith("?"); t = t.rstrip("?")
    if v is None: return opt
    if t == "s": return isinstance(v, str) and v != ""
    if t == "n": return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t == "b": return isinstance(v, bool)
    if t == "d":
        if not (isinstance(v, str) and re.fullmatch(r"\d{4}-\d\d-\d\d", v)): return False
        dt.date.fromisoformat(v); return True
    return False

LABELS = ("supported", "contradicted", "unsupported")
claims = [json.loads(l) for l in open(os.path.join(BASE, "claims.jsonl"), encoding="utf-8") if l.strip()]
pred_count = {p: 0 for p in ARGSPEC}
n_props = 0
for i, c in enumerate(claims, 1):
    cid = c.get("id")
    if list(c.keys()) != ["id", "text", "blocking", "expected", "propositions", "note"]: err(f"{cid}: key order {list(c)}")
    if cid != "k%03d" % i: err(f"{cid}: id out of sequence (expected k{i:03d})")
    if not isinstance(c["blocking"], bool): err(f"{cid}: blocking not bool")
    if c["expected"] not in LABELS: err(f"{cid}: bad expected")
    if not c["text"].strip() or not c["note"].strip(): err(f"{cid}: empty text/note")
    labs = []
    for pr in c["propositions"]:
        n_props += 1
        if list(pr.keys()) != ["pred", "args", "cites", "expected"]: err(f"{cid}: proposition key order {list(pr)}")
        pred, a, cites = pr["pred"], pr["args"], pr["cites"]
        if pred not in ARGSPEC: err(f"{cid}: unknown pred {pred}"); continue
        pred_count[pred] += 1
        spec = ARGSPEC[pred]
        for k in a:
            if k not in spec: err(f"{cid}: {pred} unexpected arg {k}")
        for k, t in spec.items():
            if k not in a and not t.endswith("?"): err(f"{cid}: {pred} missing arg {k}")
            elif not check_type(a.get(k), t): err(f"{cid}: {pred} arg {k} bad type/shape {a.get(k)!r}")
        if not cites or not all(x in ALL_DOCS for x in cites): err(f"{cid}: bad cites {cites}")
        if len(set(cites)) != len(cites): err(f"{cid}: duplicate cite")
        if pr["expected"] not in LABELS: err(f"{cid}: bad proposition label")
        if pred != "statement":
            got = evaluate(pred, a, set(cites))
            if got != pr["expected"]: err(f"{cid}: {pred} {a} recomputed {got}, labelled {pr['expected']}")
        labs.append(pr["expected"])
    agg = "contradicted" if "contradicted" in labs else ("unsupported" if "unsupported" in labs else "supported")
    if not labs: err(f"{cid}: no propositions")
    if agg != c["expected"]: err(f"{cid}: aggregation gives {agg}, labelled {c['expected']}")

# ---------- set-level requirements
if not 85 <= len(claims) <= 100: err(f"claim count {len(claims)}")
for p, n in pred_count.items():
    if p != "statement" and n < 2: err(f"predicate {p} used {n} times")
if not 5 <= pred_count["statement"] <= 8: err(f"statement count {pred_count['statement']}")
n_sup = sum(c["expected"] == "supported" for c in claims)
n_block_bad = sum(c["blocking"] and c["expected"] != "supported" for c in claims)
if n_sup < 45: err(f"only {n_sup} supported")
if n_block_bad < 15: err(f"only {n_block_bad} blocking contradicted/unsupported")
if not 14 <= len(ALL_DOCS) <= 18: err(f"document count {len(ALL_DOCS)}")

# ---------- manifest
man = json.load(open(os.path.join(BASE, "manifest.json"), encoding="utf-8"))
if set(man) != ALL_DOCS: err(f"manifest files differ: {set(man) ^ ALL_DOCS}")
for fn, m in man.items():
    if list(m) != ["media_type", "title"]: err(f"manifest keys {fn}")
    if fn in texts:
        if m["media_type"] != "text/plain; charset=utf-8": err(f"media type {fn}")
        if m["title"] != texts[fn].split("\n", 1)[0]: err(f"title mismatch {fn}")
    elif fn in jsons:
        if m["media_type"] != "application/json": err(f"media type {fn}")
        if not m["title"].strip(): err(f"empty title {fn}")

if errors:
    print("\n".join(errors)); print(f"FAILED ({len(errors)} problems)"); sys.exit(1)
print(f"documents={len(ALL_DOCS)} claims={len(claims)} propositions={n_props} supported={n_sup} "
      f"blocking_not_supported={n_block_bad} statements={pred_count['statement']}")
print("sha256(claims.jsonl)=" + hashlib.sha256(open(os.path.join(BASE, "claims.jsonl"), "rb").read()).hexdigest())
print("OK")
